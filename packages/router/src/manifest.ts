import { defineMethod } from '@multihop/core';
import { routerSettingsSchema } from './settings';
import { routerTrainer } from './trainer';
import { ROUTER_PAPER, ROUTER_TITLE } from './variants';
import type * as Workflows from './workflows';

// Loaded when a workflow is built, not when the manifest is read: listing methods loads no engine.
const workflows = (): typeof Workflows => require('./workflows');

/**
 * The router as the platform sees it: one workflow, `router`, that hands each question to the
 * installed workflow with the best predicted quality for its cost, and a trainer that learns
 * the predictions from finished evals. It calls no model itself.
 */
export const manifest = defineMethod({
  id: 'router',
  family: 'router',
  paper: ROUTER_PAPER,
  workflows: [
    {
      id: 'router',
      title: ROUTER_TITLE,
      engine: 'langgraph',
      variant: 'full',
      settings: routerSettingsSchema,
      create: (options, context) => workflows().createRouterWorkflow(options, context),
    },
  ],
  prompts: [],
  trainers: [routerTrainer],
  // The candidate nodes run other workflows (chart kind `workflow`): their own methods describe them.
  nodes: {
    predict: { description: 'Reads the question’s features and predicts each candidate workflow’s quality and tokens; no model call.' },
  },
});
