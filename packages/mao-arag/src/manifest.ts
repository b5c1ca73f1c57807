import { defineMethod, type WorkflowEntry } from '@multihop/core';
import type * as Rollouts from './collectRollouts';
import { maoPlannerTrainer } from './plannerTrainer';
import { evaluationScore } from './rewards';
import { MAO_NODES } from './nodes';
import { MAO_PROMPTS } from './prompts';
import { maoAragSettingsSchemaFor } from './settings';
import { FIXED_VARIANTS, MAO_ARAG_PAPER, variantId, variantTitle, type MaoVariant } from './variants';
import type * as Workflows from './workflows';

// Loaded when a workflow is built or rollouts collected, not when the manifest is read: listing methods loads no engine.
const workflows = (): typeof Workflows => require('./workflows');
const rollouts = (): typeof Rollouts => require('./collectRollouts');

function entry(variant: MaoVariant): WorkflowEntry {
  return {
    id: variantId(variant),
    title: variantTitle(variant),
    engine: 'langgraph',
    variant: variant.kind === 'fixed' ? `fixed:${variant.workflow.join('+')}` : variant.kind,
    settings: maoAragSettingsSchemaFor(variant),
    score: evaluationScore,
    create: (options) => workflows().createMaoAragWorkflow(variant, options),
  };
}

/**
 * MAO-ARAG as the platform sees it: the planner (learned policy or prompt), the untrained
 * prompted planner, every valid fixed top-level workflow, its prompts, PPO rollouts of the LLM
 * planner for TRL or verl, and the planner policy trained here (`multihop train mao-arag-planner`).
 */
export const manifest = defineMethod({
  id: 'mao-arag',
  family: 'MAO-ARAG',
  paper: MAO_ARAG_PAPER,
  workflows: [entry({ kind: 'planner' }), entry({ kind: 'no-train' }), ...FIXED_VARIANTS.map(entry)],
  prompts: [...MAO_PROMPTS],
  nodes: MAO_NODES,
  trainer: {
    algorithm: 'PPO',
    stages: [{ stage: 1, role: 'mao-arag-planner', agent: 'Planner' }],
    collectRollouts: (question, options) => rollouts().collectRollouts(question, options),
  },
  trainers: [maoPlannerTrainer],
});
