export { manifest } from './manifest';
export {
  createOperaWorkflow,
  opera,
  operaNoPlan,
  operaNoRewrite,
  OPERA_DEFAULTS,
  OPERA_PAPER_ROLE_MODELS,
  type OperaOptions,
  type OperaWorkflow,
} from './workflows';
export {
  createOperaMachine,
  operaActors,
  lastStepAnswer,
  OPERA_GUARDS,
  type OperaVariant,
  type OperaSettings,
  type OperaContext,
  type OperaRuntime,
  type OperaMachine,
  type CurrentSubGoal,
  type NoProgressStop,
} from './machine';
export { operaSettingsSchema, OPERA_SETTINGS } from './settings';
export { resolvedAnswers, memoryLines, type TrajectoryMemory, type TrajectoryEntry, type Attempt } from './TrajectoryMemory';
export { planSubGoals, draftFromOutput, type PlanDraft } from './agents/PlanAgent';
export { analyseEvidence, analysisVars, type AnalysisVerdict, type AnalysisInput } from './agents/AnalysisAnswerAgent';
export { rewriteQuery, rewriteVars, type RewriteOutput, type RewriteInput } from './agents/RewriteAgent';
export { synthesizeAnswer } from './agents/synthesizeAnswer';
export {
  planReward,
  analysisReward,
  analysisFormat,
  rewriteReward,
  rewriteFormat,
  PLAN_REWARD_WEIGHTS,
  ANALYSIS_REWARD_WEIGHTS,
  REWRITE_REWARD_WEIGHTS,
  REWRITE_STRATEGIES,
  type PlanRewardWeights,
  type PlanRewardInput,
  type AnalysisRewardWeights,
  type AnalysisRewardInput,
  type RewriteRewardWeights,
  type RewriteRewardInput,
} from './rewards';
export { MAPGRPO_STAGES, type MapgrpoRole } from './mapgrpoStages';
export { collectRollouts, type OperaRolloutOptions } from './collectRollouts';
export { OPERA_PAPER, OPERA_VARIANTS } from './variants';
export {
  operaPlanPrompt,
  operaPlanRepairPrompt,
  operaAnalysisAnswerPrompt,
  operaRewritePrompt,
  operaSynthesisPrompt,
  operaPlanSchema,
  operaAnalysisSchema,
  operaRewriteSchema,
  operaSynthesisSchema,
} from './prompts';
