export { last } from './last';
export { append } from './append';
export { RUNTIME_KEY, runtimeOf, runtimeConfig, type GraphRuntime, type ConfigWithRuntime } from './runtimeOf';
export { workflowGraph, WorkflowGraph, type NodeOptions } from './workflowGraph';
export type { NodeBody } from './TracedNode';
export type { Router, FanOutRouter } from './NamedRouter';
export { CompiledWorkflowGraph, type GraphShape, type InvokeOptions, type LangGraphCompiled } from './CompiledWorkflowGraph';
export { defineGraphWorkflow, type GraphWorkflowDefinition } from './defineGraphWorkflow';
// In core since it checks runs of either engine; re-exported where it was first.
export { chartWalkProblems } from '@multihop/core';
export { RunDeltaSaver } from './RunDeltaSaver';
