export { manifest } from './manifest';
export { createMmoaRagWorkflow, mmoaRag, mmoaRagNoRewriter, mmoaRagNoSelector, type MmoaRagOptions, type MmoaRagWorkflow } from './workflows';
export {
  createMmoaRagMachine,
  mmoaRagActors,
  searchedSubQuestions,
  MMOA_GUARDS,
  type AgentTurn,
  type MmoaRagContext,
  type MmoaRagRuntime,
  type MmoaRagMachine,
} from './machine';
export { MMOA_RAG_DEFAULTS, mmoaRagSettingsSchema, MMOA_SETTINGS, type MmoaRagSettings } from './settings';
export {
  MMOA_PENALTIES,
  SELECTOR_REPLY_PATTERN,
  selectorGrammar,
  readSelection,
  rewriterViolation,
  answerWords,
  sharedF1,
  agentReward,
  type PenaltyLimits,
  type SelectorReading,
} from './rewards';
export { collectRollouts, sftExamples, turnsOf, SFT_MIN_F1, type MmoaRolloutOptions } from './collectRollouts';
export { MAPPO_STAGES } from './mappoStages';
export { evaluationScore } from './score';
export { rewriteQuery, type RewriterTurn } from './agents/QueryRewriter';
export { selectDocuments, type SelectorTurn } from './agents/Selector';
export { generateAnswer, type GeneratorTurn } from './agents/Generator';
export { buildCandidatePool, candidateQuota } from './agents/candidatePool';
export {
  queryRewriterPrompt,
  selectorPrompt,
  generatorPrompt,
  queryRewriterSchema,
  selectorSchema,
  generatorSchema,
  formatDocuments,
  MMOA_PROMPTS,
  type CandidateDocument,
} from './prompts';
export { MMOA_RAG_PAPER, MMOA_VARIANTS, MMOA_AGENTS, type MmoaVariant, type MmoaAgent } from './variants';
