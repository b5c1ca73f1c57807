import { NO_PROGRESS, withDefaults, type ModelPort, type Reranker, type Workflow } from '@multihop/core';
import { LlmReranker } from '@multihop/prompts';
import { defineGraphWorkflow } from '@multihop/engine-langgraph';
import { LexicalReranker } from '@multihop/lexical';
import { PAR2_PAPER, PAR2_VARIANTS } from './variants';
import { buildPar2Graph, type Par2Settings, type Par2Variant } from './graph';
import { PAR2_DEFAULTS, PAR2_SETTINGS } from './settings';

export { PAR2_DEFAULTS };

export interface Par2Options extends Partial<Par2Settings> {
  /**
   * Reranks each retrieval's candidates to `rerankK`. A function receives the run's (traced,
   * metered) model port, for LLM rerankers. Default: the `rerankWith` setting's, `LexicalReranker`
   * (@multihop/lexical) or `LlmReranker` (@multihop/prompts) on the run's model.
   */
  reranker?: Reranker | ((model: ModelPort) => Reranker);
}

/**
 * A PAR²-RAG workflow on LangGraph. The chart is read off the compiled graph. A run that ends
 * with the controller still asking for evidence after H hops returns its latest answer with
 * status `partial` and stopReason `hop-budget`; one whose chain stopped making progress (its
 * next query repeated an earlier one, or its retrieval added no passage) returns it with
 * stopReason `no-progress`.
 */
export function createPar2Workflow(variant: Par2Variant = 'full', options: Par2Options = {}): Workflow {
  const { reranker, ...overrides } = options;
  const settings: Par2Settings = withDefaults(PAR2_DEFAULTS, overrides, { workflow: PAR2_VARIANTS[variant].id, schema: PAR2_SETTINGS[variant], options: ['reranker'] });
  return defineGraphWorkflow({
    ...PAR2_VARIANTS[variant],
    paper: PAR2_PAPER,
    graph: buildPar2Graph(variant, settings),
    // Each hop is at most four supersteps (chain_retrieve, generate, esc, reformulate) after
    // Stage 1's four; the hop budget in state ends the loop, this only guards against a bug.
    recursionLimit: 8 + 4 * (settings.hopBudget + 1),
    runtime: (ctx) => ({ reranker: typeof reranker === 'function' ? reranker(ctx.model) : (reranker ?? (settings.rerankWith === 'llm' ? new LlmReranker(ctx.model) : new LexicalReranker())) }),
    input: (query) => ({ question: query.text, nextQuery: query.text }),
    output: (final) => ({
      answer: final.response?.answer ?? '',
      ...(final.exhausted ? { stopReason: 'hop-budget' } : final.noProgress ? { stopReason: NO_PROGRESS } : {}),
      data: {
        variant,
        settings,
        subQueries: final.subQueries,
        queries: final.queries,
        hops: final.hops,
        ...(final.noProgress ? { noProgress: final.noProgress } : {}),
        reasoning: final.response?.reasoning ?? '',
      },
    }),
  });
}


export const par2Rag = (options?: Par2Options) => createPar2Workflow('full', options);
export const par2CoverageAnchor = (options?: Par2Options) => createPar2Workflow('coverage-anchor', options);
export const par2IterativeChain = (options?: Par2Options) => createPar2Workflow('iterative-chain', options);
