export { manifest } from './manifest';
export { createMaoAragWorkflow, maoArag, maoAragNoTrain, maoAragFixed, type MaoAragOptions } from './workflows';
export { MAO_ARAG_DEFAULTS, maoAragSettingsSchema, maoAragBaseSettingsSchema, maoAragFixedDecompositionSettingsSchema } from './settings';
export { MAO_ARAG_PAPER, MAO_ARAG_ID, MAO_ARAG_NO_TRAIN_ID, FIXED_VARIANTS, fixedWorkflowId, variantId, variantTitle, type MaoVariant } from './variants';
export {
  EXECUTORS,
  EXECUTOR_NAMES,
  PLANNABLE,
  TOP_LEVEL_WORKFLOWS,
  SUB_LEVEL_WORKFLOWS,
  WORKFLOW_SPACE,
  FALLBACK_WORKFLOW,
  parsePlan,
  validityProblems,
  describeProblem,
  validWorkflow,
  workflowKey,
  type Executor,
  type Workflow,
  type PlanLevel,
  type ValidityProblem,
  type ParsedPlan,
} from './workflowSpace';
export { buildMaoAragGraph, MaoAragState, answeredSubQuestions, type MaoAragSettings, type MaoAragRuntime, type PlanDecision, type TurnSlot } from './graph';
export { promptPlanner, fixedPlanner, type WorkflowPlanner, type PlanRequest, type PlanReply } from './agents/Planner';
export { rewriteQuery } from './agents/QueryRewriter';
export { decomposeSerial, decomposeParallel, reviseSubQuestion, type SubAnswer } from './agents/QueryDecomposition';
export { retrieve, retrieveAll } from './agents/Retrieval';
export { selectDocuments } from './agents/DocumentSelector';
export { generateAnswer } from './agents/AnswerGenerator';
export { summariseAnswers } from './agents/AnswerSummariser';
export {
  MAO_PROMPTS,
  maoPlannerPrompt,
  maoSubPlannerPrompt,
  maoQueryRewritePrompt,
  maoDecomposeSerialPrompt,
  maoReviseSerialPrompt,
  maoDecomposeParallelPrompt,
  maoDocumentSelectPrompt,
  maoAnswerPrompt,
  maoSummarisePrompt,
} from './prompts';
export { maoReward, rewardOfRun, runCost, costPenalty, measureCostScale, COSTLIEST_WORKFLOWS, type RunCost, type CostScale, type MaoRewardInput } from './rewards';
export { FEATURE_NAMES, FEATURE_SPEC_VERSION, questionFeatures } from './policy/features';
export { createPolicy, loadPolicy, savePolicy, policyPlanner, policyDecision, policyDistribution, POLICY_FORMAT, type PlannerPolicy, type PolicyHead, type PolicyTraining, type PolicyDecision } from './policy/PlannerPolicy';
export { ppoUpdate, PPO_DEFAULTS, type PpoHyperparameters, type PpoSample } from './policy/ppo';
export { trainPlanner, type TrainPlannerOptions, type TrainPlannerResult, type EpochProgress } from './trainPlanner';
export { collectRollouts, type MaoRolloutOptions } from './collectRollouts';
export { maoPlannerTrainer, plannerTrainerSettingsSchema } from './plannerTrainer';
