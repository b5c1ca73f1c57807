import { defineMethod, type Workflow, type WorkflowEntry } from '@multihop/core';
import { BASELINE_NODES } from './nodes';
import { chainOfThoughtPrompt, directPrompt, ircotStepPrompt, ragAnswerPrompt, reactStepPrompt } from './prompts';
import { BASELINE_SETTINGS } from './settings';
import { BASELINES } from './variants';
import type * as Ircot from './ircot';
import type * as React from './react';
import type * as SingleShot from './singleShot';

// Loaded when a workflow is built, not when the manifest is read: listing methods needs no LangGraph.
const singleShot = (): typeof SingleShot => require('./singleShot');
const ircot = (): typeof Ircot => require('./ircot');
const react = (): typeof React => require('./react');

type Baseline = keyof typeof BASELINES;

const entry = (baseline: Baseline, variant: string, create: (options?: Record<string, unknown>) => Workflow, searches = true): WorkflowEntry => ({
  id: BASELINES[baseline].id,
  title: BASELINES[baseline].title,
  engine: 'langgraph',
  variant,
  settings: BASELINE_SETTINGS[baseline],
  ...(searches ? {} : { searches: false }),
  create,
});

/** The five baselines every paper compares against, each a workflow of its own. */
export const manifest = defineMethod({
  id: 'baselines',
  family: 'baseline',
  paper: 'The baselines of PAR²-RAG §4.1, OPERA §4, MAO-ARAG §4 and HERA §5.1',
  workflows: [
    // Closed-book: the model answers from what it knows, so an evaluation gives them no retrieval scores.
    entry('direct', 'direct', (options) => singleShot().directInference(options as SingleShot.NoOptions), false),
    entry('cot', 'cot', (options) => singleShot().chainOfThought(options as SingleShot.NoOptions), false),
    entry('rag', 'single-turn-rag', (options) => singleShot().singleTurnRag(options)),
    entry('ircot', 'ircot', (options) => ircot().ircot(options)),
    entry('react', 'react', (options) => react().react(options)),
  ],
  prompts: [directPrompt, chainOfThoughtPrompt, ragAnswerPrompt, ircotStepPrompt, reactStepPrompt],
  nodes: BASELINE_NODES,
});
