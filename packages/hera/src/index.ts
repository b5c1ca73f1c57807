export { manifest } from './manifest';
export { createHeraWorkflow, hera, heraNoLibrary, heraNoRope, applyEvolvedPrompt, HERA_DEFAULTS, type HeraOptions } from './workflows';
export { heraSettingsSchema, heraNoLibrarySettingsSchema } from './settings';
export { HERA_PAPER, HERA_VARIANTS, variantId, variantTitle, type HeraVariant } from './variants';
export { buildHeraGraph, HeraState, type HeraSettings, type HeraRuntime, type TopologyAttempt, type TopologySource } from './graph';
export {
  HERA_AGENTS,
  EXECUTION_AGENTS,
  AGENT_NODES,
  FALLBACK_TOPOLOGY,
  TopologyError,
  agentNamed,
  topologyProblems,
  toTopology,
  trajectoryOfTopology,
  type HeraAgent,
  type ExecutionAgent,
  type Topology,
  type TopologyStep,
  type RawTopology,
  type TopologyProblem,
  type TopologyProblemKind,
} from './topology';
export {
  QUERY_TYPES,
  COMPLEXITIES,
  EXPERIENCE_LIBRARY_FORMAT,
  STATE_FILES,
  retrieveExperiences,
  similarProfiles,
  insightOverlap,
  loadExperienceLibrary,
  loadHeraState,
  loadEvolvedPrompts,
  queryProfileSchema,
  experienceEntrySchema,
  experienceLibraryFileSchema,
  evolvedPromptsFileSchema,
  type QueryType,
  type Complexity,
  type QueryProfile,
  type ExperienceEntry,
  type RetrievedExperience,
  type ExperienceRetrieval,
  type EvolvedPrompt,
  type HeraState as HeraStateFiles,
} from './experience';
export {
  ExperienceStore,
  MemoryExperienceSource,
  EMPTY_EXPERIENCES,
  LIBRARY_DB,
  LIBRARY_TABLE,
  defaultExperienceEmbedder,
  lazyStoreSource,
  profileText,
  rankExperiences,
  readHeraState,
  type ExperienceSource,
} from './experienceStore';
export { heraScore, transitionEntropyOfRuns } from './score';
export { reflectOnGroup, type GroupRun } from './agents/ReflectAgent';
export { emptyBoard, mergeBoards, finalAnswer, type Blackboard } from './agents/Blackboard';
export type { AgentTask } from './agents/AgentTask';
export {
  HERA_PROMPTS,
  heraProfilePrompt,
  heraOrchestratePrompt,
  heraRepairPrompt,
  heraDecomposePrompt,
  heraRetrievePrompt,
  heraRewritePrompt,
  heraSelectPrompt,
  heraValidatePrompt,
  heraAnswerPrompt,
  heraConcludePrompt,
  heraReflectPrompt,
  heraTopologySchema,
  heraReflectSchema,
  type HeraTopologyReply,
  type HeraReflection,
} from './prompts';
export { evolveHera, EVOLVE_DEFAULTS, type EvolveOptions, type EvolveSettings, type RoundProgress } from './evolve/evolve';
export { heraEvolveTrainer, heraEvolveSettingsSchema } from './evolve/trainer';
export { applyLibraryOperations, creditUtility, chooseLibraryOperations, type LibraryChange, type LibraryOperation, type LibraryUpdateOptions } from './evolve/library';
export { mutateTopology, ALTERNATIVES, INSERTIONS } from './evolve/mutation';
export { AGENT_PROMPTS, ROPE_AXES, ROPE_AXIS_NAMES, consolidate, generateVariant, currentSystem, contrastVariants, type RopeAxis, type RopePrompt, type PromptDiff, type FailureRecord, type VariantResult } from './evolve/rope';
export { HERA_EVOLVE_PROMPTS, heraLibraryPrompt, heraBlamePrompt, heraContrastPrompt, heraLibraryOpsSchema, heraBlameSchema, heraContrastSchema, type HeraLibraryOps, type HeraContrast } from './evolve/prompts';
