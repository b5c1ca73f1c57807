import { mmoaGenerator, mmoaQueryRewriter, mmoaSelector } from './handlers';

export { mmoaGenerator, mmoaQueryRewriter, mmoaSelector };
export { rewriteOffline, selectOffline } from './handlers';

/** The offline model's answers to MMOA-RAG's three roles: pass to `offlineModel({ handlers })`. */
export const offlineHandlers = [mmoaQueryRewriter, mmoaSelector, mmoaGenerator];
