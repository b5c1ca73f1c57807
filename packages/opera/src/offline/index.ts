import { operaAnalysisAnswer, operaPlan, operaRewrite, operaSynthesis } from './handlers';

export { operaAnalysisAnswer, operaPlan, operaRewrite, operaSynthesis, OPERA_SUFFICIENCY_THRESHOLD } from './handlers';

/** The offline model's answers to OPERA's roles: pass to `offlineModel({ handlers })`. */
export const offlineHandlers = [operaPlan, operaAnalysisAnswer, operaRewrite, operaSynthesis];
