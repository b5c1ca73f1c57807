import { heraAnswerer, heraConclude, heraDecomposer, heraOrchestrator, heraProfiler, heraReflect, heraRetriever, heraRewriter, heraSelector, heraValidator } from './handlers';

export { heraAnswerer, heraConclude, heraDecomposer, heraOrchestrator, heraProfiler, heraReflect, heraRetriever, heraRewriter, heraSelector, heraValidator };
export { offlineTopology, offlineQueryType, heraOfflineProfile } from './handlers';

/** The offline model's answers to HERA's roles: pass to `offlineModel({ handlers })`. */
export const offlineHandlers = [heraProfiler, heraOrchestrator, heraDecomposer, heraRetriever, heraRewriter, heraSelector, heraValidator, heraAnswerer, heraConclude, heraReflect];
