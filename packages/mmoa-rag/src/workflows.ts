import { withDefaults } from '@multihop/core';
import { defineXStateWorkflow, type XStateWorkflow } from '@multihop/engine-xstate';
import { createMmoaRagMachine, mmoaRagActors, type MmoaRagContext, type MmoaRagRuntime } from './machine';
import { MMOA_RAG_DEFAULTS, MMOA_SETTINGS, type MmoaRagSettings } from './settings';
import { MMOA_RAG_PAPER, MMOA_VARIANTS, type MmoaVariant } from './variants';

export interface MmoaRagOptions extends Partial<MmoaRagSettings> {
  /** Extra prompt variables per role (rollouts pass `sample` to draw episodes). */
  varsFor?: MmoaRagRuntime['varsFor'];
}

/** An MMOA-RAG workflow: its variant and the settings it runs with. */
export interface MmoaRagWorkflow extends XStateWorkflow {
  variant: MmoaVariant;
  settings: MmoaRagSettings;
}

const LABELS: Record<string, string> = {
  rewrite: 'Query Rewriter',
  checkRewrite: 'QR penalty check',
  rewriterPenalty: 'QR penalty −0.5',
  retrieve: 'Retriever (top-K per sub-question)',
  select: 'Selector (document IDs)',
  checkSelection: 'S penalty check',
  selectorPenalty: 'S penalty −1',
  generate: 'Generator',
  checkAnswer: 'G penalty check',
  generatorPenalty: 'G penalty −0.5',
};

/**
 * An MMOA-RAG workflow on a real XState actor: the machine is built once per workflow, each run
 * provides actors bound to its own RunContext. The run's data carries every agent turn with its
 * penalty, which the evaluation's `score` and the MAPPO rollouts read.
 */
export function createMmoaRagWorkflow(variant: MmoaVariant = 'full', options: MmoaRagOptions = {}): MmoaRagWorkflow {
  const { varsFor, ...overrides } = options;
  const { id, title } = MMOA_VARIANTS[variant];
  const settings: MmoaRagSettings = withDefaults(MMOA_RAG_DEFAULTS, overrides, { workflow: id, schema: MMOA_SETTINGS[variant], options: ['varsFor'] });
  const workflow = defineXStateWorkflow({
    id,
    title,
    paper: MMOA_RAG_PAPER,
    machine: createMmoaRagMachine(variant, settings),
    labels: LABELS,
    input: (query) => ({ question: query.text }),
    implementations: (ctx) => ({ actors: mmoaRagActors.bind({ ctx, ...(varsFor ? { varsFor } : {}) }) }),
    failedStates: ['failed'],
    output: ({ context }) => ({ answer: context.answer, data: runData(context) }),
  });
  return { ...workflow, variant, settings };
}

function runData(context: MmoaRagContext): Record<string, unknown> {
  return {
    variant: context.variant,
    settings: context.settings,
    subQuestions: context.subQuestions,
    searched: context.searched,
    candidates: context.candidates.map((d, i) => ({ document: `Document${i}`, id: d.id, title: d.title })),
    ...(context.selection ? { selection: context.selection } : {}),
    reply: context.reply,
    turns: context.turns,
  };
}

export const mmoaRag = (options?: MmoaRagOptions) => createMmoaRagWorkflow('full', options);
export const mmoaRagNoRewriter = (options?: MmoaRagOptions) => createMmoaRagWorkflow('no-rewriter', options);
export const mmoaRagNoSelector = (options?: MmoaRagOptions) => createMmoaRagWorkflow('no-selector', options);
