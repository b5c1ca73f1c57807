export { defineMethod, parseSettings, shownValue, withDefaults, checkOptionNames, MethodCatalog, type MethodManifest, type MethodNode, type WorkflowEntry, type WorkflowContext, type EngineName } from './defineMethod';
export {
  groupAdvantages,
  candidateModel,
  ROLLOUT_TEMPERATURE,
  type Trainable,
  type TrainingStage,
  type RolloutRecord,
  type RolloutOptions,
  type RewardBreakdown,
  type AdvantageOptions,
  type LocalTrainer,
  type LocalTrainingOptions,
  type EvalOutcome,
  type EvalSource,
  type EvalTrainingOptions,
} from './Trainable';
