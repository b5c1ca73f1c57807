import { createModel, MultihopError, type ModelOptions, type ModelPort, type Provider } from '@multihop/core';
import { chainOfThought, direct, ircotStep, ragAnswer, reactStep } from './handlers/baselines';
import { judge } from './handlers/judge';
import { operaAnalysisAnswer, operaPlan, operaRewrite, operaSynthesis } from './handlers/opera';
import { par2Esc, par2Planner, par2QueryFormulator, par2Writer } from './handlers/par2';
import { rerank } from './handlers/rerank';
import type { OfflineHandler } from './OfflineHandler';

/** Handlers of every role the offline model answers, keyed by role. Method issues add theirs. */
export const offlineHandlers: Readonly<Record<string, OfflineHandler>> = {
  direct,
  cot: chainOfThought,
  'rag-answer': ragAnswer,
  ircot: ircotStep,
  react: reactStep,
  judge,
  'par2-planner': par2Planner,
  'par2-writer': par2Writer,
  'par2-esc': par2Esc,
  'par2-query-formulator': par2QueryFormulator,
  'opera-plan': operaPlan,
  'opera-analysis-answer': operaAnalysisAnswer,
  'opera-rewrite': operaRewrite,
  'opera-synthesis': operaSynthesis,
  reranker: rerank,
};

export interface OfflineProviderOptions {
  /** Extra or replacement handlers (for roles of your own prompts). */
  handlers?: Record<string, OfflineHandler>;
}

/**
 * The offline provider: dispatches on the call's role and answers from its variables (not the
 * rendered text), deterministically. It returns JSON text like a real model would, so the
 * port's parsing and validation run the same way; it reports no usage, so every token count
 * of an offline run is an estimate and marked as one.
 */
export function createOfflineProvider(options: OfflineProviderOptions = {}): Provider {
  const handlers: Record<string, OfflineHandler> = { ...offlineHandlers, ...options.handlers };
  return {
    id: 'offline',
    async generate(request) {
      const handler = handlers[request.role];
      if (!handler) {
        throw new MultihopError(
          'OFFLINE_ROLE',
          `the offline model has no handler for role "${request.role}" (prompt ${request.promptId}); it answers: ${Object.keys(handlers).sort().join(', ')}`,
        );
      }
      return { text: JSON.stringify(handler(request.vars, request)), model: 'offline' };
    },
  };
}

/** A model port served entirely by the offline model. */
export function offlineModel(options: OfflineProviderOptions & Omit<ModelOptions, 'provider' | 'roles'> = {}): ModelPort {
  const { handlers, ...rest } = options;
  return createModel({ ...rest, provider: createOfflineProvider({ handlers }) });
}
