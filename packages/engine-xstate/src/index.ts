export { runMachine, MAX_TRANSITIONS, type MachineRunOptions, type MachineRunResult, type MachineImplementations } from './runMachine';
export { promiseActors, type ActorBody, type ActorBodies, type PromiseActors, type PromiseLogicOf } from './promiseActors';
export { chartStateNames } from './chartStateNames';
export { defineXStateWorkflow, type XStateWorkflow, type XStateWorkflowDefinition } from './defineXStateWorkflow';
