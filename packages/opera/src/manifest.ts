import { defineMethod, type WorkflowEntry } from '@multihop/core';
import type * as Rollouts from './collectRollouts';
import type { OperaVariant } from './machine';
import { MAPGRPO_STAGES } from './mapgrpoStages';
import { OPERA_NODES } from './nodes';
import { operaAnalysisAnswerPrompt, operaPlanPrompt, operaPlanRepairPrompt, operaRewritePrompt, operaSynthesisPrompt } from './prompts';
import { OPERA_SETTINGS } from './settings';
import { OPERA_PAPER, OPERA_VARIANTS } from './variants';
import type * as Workflows from './workflows';

// Loaded when a workflow is built or rollouts collected, not when the manifest is read.
const workflows = (): typeof Workflows => require('./workflows');
const rollouts = (): typeof Rollouts => require('./collectRollouts');

const entry = (variant: OperaVariant): WorkflowEntry => ({
  ...OPERA_VARIANTS[variant],
  engine: 'xstate',
  variant,
  settings: OPERA_SETTINGS[variant],
  create: (options) => workflows().createOperaWorkflow(variant, options),
});

/** OPERA as the platform sees it: the method, its two ablations, its prompts, and MAPGRPO rollouts. */
export const manifest = defineMethod({
  id: 'opera',
  family: 'OPERA',
  paper: OPERA_PAPER,
  workflows: [entry('full'), entry('no-plan'), entry('no-rewrite')],
  prompts: [operaPlanPrompt, operaPlanRepairPrompt, operaAnalysisAnswerPrompt, operaRewritePrompt, operaSynthesisPrompt],
  nodes: OPERA_NODES,
  trainer: {
    algorithm: 'MAPGRPO',
    stages: MAPGRPO_STAGES,
    collectRollouts: (question, options) => rollouts().collectRollouts(question, options),
  },
});
