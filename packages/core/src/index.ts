// Contracts
export * from './errors';
export { fileSha1, makeDirectory, parseJsonText, readJsonFile, writeFileWhole } from './files';
export * from './types';
export type { SearchHit, SearchOptions, RetrieverPort, Reranker, Embedder } from './retriever';
export { limitSearches } from './retriever';
export { UsageMeter, emptyUsage, estimateTokens, addUsage, totalTokens, type CallUsage } from './usage';

// Workflows, charts, traces, budgets
export { defineWorkflow, routeChoice, routeValue, type RoutePrediction, type RoutingPolicy, type Workflow, type WorkflowDefinition, type WorkflowOutput, type RunContext, type RunOptions } from './workflow';
export { toMermaid, validateChart, type Chart, type ChartNode, type ChartEdge } from './chart';
export { chartWalkProblems } from './chartWalk';
export { chartFromLangGraph, type LangGraphDrawable, type LangGraphChartOptions } from './chartFromLangGraph';
export { chartFromXState, xstateEventLabel, xstateGuardName, type XStateMachineLike, type XStateNodeJSON, type XStateTransitionJSON, type XStateRootLike, type XStateChartOptions } from './chartFromXState';
export { TraceBus, type TraceListener } from './trace';
export { deltasOf, RUN_DELTA_KEY, type CallJournal, type CheckpointHistory, type DurableContext, type DurableRunOptions, type RecordedCall, type RunDelta, type ThreadRun } from './durable';
export { BudgetTracker, type Budget } from './budget';
export { NO_PROGRESS, loopProgress, normaliseQuery, repeatedQuery, type LoopProgress, type NoProgressKind } from './loop';

// Plans: sub-goal lists / DAGs with placeholder dependencies
export * from './plan';

// Methods: manifests (one folder per method) and the trainer contract
export * from './method';
export { editDistance, nearest, didYouMean } from './suggest';
export { sliceWhole } from './text';

// Model port
export type {
  ChatMessage,
  PromptTemplate,
  ReplyFormat,
  ModelCallRequest,
  ModelCallResult,
  ModelPort,
  Provider,
  ProviderRequest,
  ProviderResponse,
} from './model/port';
export { createModel, parseReply, jsonSchemaOf, type ModelOptions } from './model/createModel';
export { extractJson } from './model/json';
export { ConcurrencyLimiter } from './model/limiter';
export { retryingProvider, retryAfterMs, abortableSleep, type ProviderRetryOptions, type ProviderRetryNotice } from './model/retry';
export { processAlive } from './process';
export { ResponseCache } from './model/cache';
export { createScriptedProvider, type ScriptedProviderOptions, type ScriptedReply } from './model/scripted';
export {
  createModelFromEnv,
  findConfigFile,
  loadModelConfig,
  parseModelSpec,
  isHttpUrl,
  type ModelSpec,
  type ModelConfigFile,
  type ModelFromEnvOptions,
  type ResolvedModel,
  type OpenAIProviderSettings,
  type GuidedDecoding,
} from './model/config';
