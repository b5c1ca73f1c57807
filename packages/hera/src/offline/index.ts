import { heraAnswerer, heraBlame, heraLibrary, heraRope, heraConclude, heraDecomposer, heraOrchestrator, heraProfiler, heraReflect, heraRetriever, heraRewriter, heraSelector, heraValidator } from './handlers';

export { heraAnswerer, heraBlame, heraLibrary, heraRope, heraConclude, heraDecomposer, heraOrchestrator, heraProfiler, heraReflect, heraRetriever, heraRewriter, heraSelector, heraValidator };
export { offlineTopology, offlineTemplates, offlineQueryType, heraOfflineProfile, chainOf } from './handlers';

/** The offline model's answers to HERA's roles: pass to `offlineModel({ handlers })`. */
export const offlineHandlers = [heraProfiler, heraOrchestrator, heraDecomposer, heraRetriever, heraRewriter, heraSelector, heraValidator, heraAnswerer, heraConclude, heraReflect, heraLibrary, heraBlame, heraRope];
