export { directInference, chainOfThought, singleTurnRag, type SingleTurnRagOptions } from './singleShot';
export { ircot, type IrcotOptions } from './ircot';
export { react, type ReactOptions } from './react';
export { BASELINES } from './variants';
export { BASELINE_SETTINGS, SINGLE_TURN_RAG_DEFAULTS, IRCOT_DEFAULTS, REACT_DEFAULTS } from './settings';
export { manifest } from './manifest';
export {
  answerSchema,
  reasonedAnswerSchema,
  ircotStepSchema,
  reactStepSchema,
  directPrompt,
  chainOfThoughtPrompt,
  ragAnswerPrompt,
  ircotStepPrompt,
  reactStepPrompt,
} from './prompts';
export type { ReactStep, NoProgressStop } from './state';
