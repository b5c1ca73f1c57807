import { defineMethod, type WorkflowEntry } from '@multihop/core';
import type * as Rollouts from './collectRollouts';
import { MAPPO_STAGES } from './mappoStages';
import { MMOA_NODES } from './nodes';
import { MMOA_PROMPTS } from './prompts';
import { evaluationScore } from './score';
import { MMOA_SETTINGS } from './settings';
import { MMOA_RAG_PAPER, MMOA_VARIANTS, type MmoaVariant } from './variants';
import type * as Workflows from './workflows';

// Loaded when a workflow is built or rollouts collected, not when the manifest is read: listing methods loads no engine.
const workflows = (): typeof Workflows => require('./workflows');
const rollouts = (): typeof Rollouts => require('./collectRollouts');

const entry = (variant: MmoaVariant): WorkflowEntry => ({
  ...MMOA_VARIANTS[variant],
  engine: 'xstate',
  variant,
  settings: MMOA_SETTINGS[variant],
  score: evaluationScore,
  create: (options) => workflows().createMmoaRagWorkflow(variant, options),
});

/** MMOA-RAG as the platform sees it: the method, the paper's two agent ablations, its prompts and MAPPO rollouts. */
export const manifest = defineMethod({
  id: 'mmoa-rag',
  family: 'MMOA-RAG',
  paper: MMOA_RAG_PAPER,
  workflows: [entry('full'), entry('no-rewriter'), entry('no-selector')],
  prompts: [...MMOA_PROMPTS],
  nodes: MMOA_NODES,
  trainer: {
    algorithm: 'MAPPO',
    stages: MAPPO_STAGES,
    collectRollouts: (question, options) => rollouts().collectRollouts(question, options),
    sftExamples: (records) => rollouts().sftExamples(records),
  },
});
