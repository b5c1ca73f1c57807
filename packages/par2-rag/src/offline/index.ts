import { builtinOfflineHandlers } from '@multihop/offline-model';
import { rerankPrompt } from '@multihop/prompts';
import { par2Esc, par2Planner, par2QueryFormulator, par2Writer } from './handlers';

export { par2Esc, par2Planner, par2QueryFormulator, par2Writer };

/** The offline model's own reranker handler (the shared prompt's), the one object every method that reranks lists. */
const reranker = builtinOfflineHandlers.find((h) => h.role === rerankPrompt.role)!;

/** The offline model's answers to PAR²-RAG's roles, its reranker's included: pass to `offlineModel({ handlers })`. */
export const offlineHandlers = [par2Planner, par2Writer, par2Esc, par2QueryFormulator, reranker];
