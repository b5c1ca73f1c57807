export { directInference, chainOfThought, singleTurnRag, type SingleTurnRagOptions } from './singleShot';
export { ircot, type IrcotOptions } from './ircot';
export { react, type ReactOptions } from './react';
export { BASELINE_PAPERS } from './graphWorkflow';
export type { ReactStep } from './state';
