import { chainOfThought, direct, ircotStep, ragAnswer, reactStep } from './handlers';

export { chainOfThought, direct, ircotStep, ragAnswer, reactStep };

/** The offline model's answers to the baselines' roles: pass to `offlineModel({ handlers })`. */
export const offlineHandlers = [direct, chainOfThought, ragAnswer, ircotStep, reactStep];
