import { defineMethod, type WorkflowEntry } from '@multihop/core';
import { rerankPrompt } from '@multihop/prompts';
import type { Par2Variant } from './graph';
import { PAR2_NODES } from './nodes';
import { par2EscPrompt, par2PlannerPrompt, par2QueryFormulatorPrompt, par2WriterPrompt } from './prompts';
import { PAR2_SETTINGS } from './settings';
import { PAR2_PAPER, PAR2_VARIANTS } from './variants';
import type * as Workflows from './workflows';

// Loaded when a workflow is built, not when the manifest is read: listing methods needs no LangGraph.
const workflows = (): typeof Workflows => require('./workflows');

const entry = (variant: Par2Variant): WorkflowEntry => ({
  ...PAR2_VARIANTS[variant],
  engine: 'langgraph',
  variant,
  settings: PAR2_SETTINGS[variant],
  create: (options) => workflows().createPar2Workflow(variant, options),
});

/** PAR²-RAG as the platform sees it: the full method, its two module variants, its four prompted roles and the reranker's. */
export const manifest = defineMethod({
  id: 'par2-rag',
  family: 'PAR²-RAG',
  paper: PAR2_PAPER,
  workflows: [entry('full'), entry('coverage-anchor'), entry('iterative-chain')],
  // The shared reranker prompt: called at the retrieval nodes when `rerankWith` is `llm`.
  prompts: [par2PlannerPrompt, par2WriterPrompt, par2EscPrompt, par2QueryFormulatorPrompt, rerankPrompt],
  nodes: PAR2_NODES,
});
