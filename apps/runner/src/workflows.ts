import { chainOfThought, directInference, ircot, react, singleTurnRag } from '@multihop/baselines';
import { ConfigError, type Workflow } from '@multihop/core';
import { opera, operaNoPlan, operaNoRewrite } from '@multihop/opera';
import { par2CoverageAnchor, par2IterativeChain, par2Rag } from '@multihop/par2-rag';

export interface WorkflowEntry {
  id: string;
  /** Short name of the paper or family, for listings. */
  family: string;
  create(): Workflow;
}

/** Every workflow the runner knows, in the order listings show them. */
export const WORKFLOWS: readonly WorkflowEntry[] = [
  { id: 'par2-rag', family: 'PAR²-RAG', create: () => par2Rag() },
  { id: 'par2-coverage-anchor', family: 'PAR²-RAG', create: () => par2CoverageAnchor() },
  { id: 'par2-iterative-chain', family: 'PAR²-RAG', create: () => par2IterativeChain() },
  { id: 'opera', family: 'OPERA', create: () => opera() },
  { id: 'opera-no-plan', family: 'OPERA', create: () => operaNoPlan() },
  { id: 'opera-no-rewrite', family: 'OPERA', create: () => operaNoRewrite() },
  { id: 'direct', family: 'baseline', create: () => directInference() },
  { id: 'cot', family: 'baseline', create: () => chainOfThought() },
  { id: 'single-turn-rag', family: 'baseline', create: () => singleTurnRag() },
  { id: 'ircot', family: 'baseline', create: () => ircot() },
  { id: 'react', family: 'baseline', create: () => react() },
];

export function findWorkflow(id: string): Workflow {
  const entry = WORKFLOWS.find((w) => w.id === id);
  if (!entry) throw new ConfigError(`unknown workflow "${id}"; known: ${WORKFLOWS.map((w) => w.id).join(', ')}`);
  return entry.create();
}

/** Parses `a,b,c`, checking every id and refusing repeats. */
export function parseWorkflowList(list: string): Workflow[] {
  const ids = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) throw new ConfigError('--workflows names no workflow');
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated) throw new ConfigError(`--workflows names "${repeated}" twice`);
  return ids.map(findWorkflow);
}
