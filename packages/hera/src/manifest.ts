import { defineMethod, type WorkflowEntry } from '@multihop/core';
import { HERA_NODES } from './nodes';
import { HERA_PROMPTS } from './prompts';
import { heraEvolveTrainer } from './evolve/trainer';
import { HERA_EVOLVE_PROMPTS } from './evolve/prompts';
import { heraScore, transitionEntropyOfRuns } from './score';
import { heraNoLibrarySettingsSchema, heraSettingsSchema } from './settings';
import { HERA_PAPER, HERA_VARIANTS, variantId, variantTitle, type HeraVariant } from './variants';
import type * as Workflows from './workflows';

// Loaded when a workflow is built, not when the manifest is read: listing methods loads no engine.
const workflows = (): typeof Workflows => require('./workflows');

function entry(variant: HeraVariant): WorkflowEntry {
  return {
    id: variantId(variant),
    title: variantTitle(variant),
    engine: 'langgraph',
    variant,
    settings: variant === 'no-library' ? heraNoLibrarySettingsSchema : heraSettingsSchema,
    score: heraScore,
    // HERA §5.4's transition entropy is a property of many runs: eval computes it over the window of this evaluation's runs.
    aggregate: (results) => ({ transition_entropy: transitionEntropyOfRuns(results) }),
    create: (options) => workflows().createHeraWorkflow(variant, options),
  };
}

/**
 * HERA as the platform sees it: the experience-guided orchestrator and its agent topologies,
 * the two ablations, every agent's prompt (the Reflect Agent's for the learning loop), and the
 * per-run topology metrics as the workflows' score; the learning loop as the local trainer
 * `hera-evolve` (`multihop train hera-evolve --out DIR`, then `--set hera.state=DIR`).
 */
export const manifest = defineMethod({
  id: 'hera',
  family: 'HERA',
  paper: HERA_PAPER,
  workflows: HERA_VARIANTS.map(entry),
  prompts: [...HERA_PROMPTS, ...HERA_EVOLVE_PROMPTS],
  nodes: HERA_NODES,
  trainers: [heraEvolveTrainer],
});
