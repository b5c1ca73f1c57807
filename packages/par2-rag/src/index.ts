export { manifest } from './manifest';
export { createPar2Workflow, par2Rag, par2CoverageAnchor, par2IterativeChain, PAR2_DEFAULTS, type Par2Options } from './workflows';
export { PAR2_PAPER, PAR2_VARIANTS } from './variants';
export { par2SettingsSchema, PAR2_SETTINGS } from './settings';
export {
  par2PlannerPrompt,
  par2WriterPrompt,
  par2EscPrompt,
  par2QueryFormulatorPrompt,
  par2PlanSchema,
  par2WriterSchema,
  par2EscSchema,
  par2QuerySchema,
} from './prompts';
export { buildPar2Graph, Par2State, type Par2Variant, type Par2Settings, type Par2Runtime, type HopRecord, type NoProgressStop } from './graph';
export { planSubQueries, type SubQuery } from './agents/Planner';
export { writeResponse } from './agents/Writer';
export { evidenceSufficiency, type EscVerdict } from './agents/EvidenceSufficiencyController';
export { formulateQuery } from './agents/QueryFormulator';
export { retrieveAndRerank, mergeRoundRobin } from './agents/RetrieverReranker';
