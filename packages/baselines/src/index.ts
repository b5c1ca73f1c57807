export { directInference, chainOfThought, singleTurnRag, type SingleTurnRagOptions } from './singleShot';
export { ircot, type IrcotOptions } from './ircot';
export { react, type ReactOptions } from './react';
export { BASELINES } from './variants';
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
export type { ReactStep } from './state';
