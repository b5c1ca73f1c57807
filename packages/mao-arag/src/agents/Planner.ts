import { ModelOutputError, type RunContext } from '@multihop/core';
import { maoPlannerPrompt, maoSubPlannerPrompt } from '../prompts';
import type { PlanLevel, Workflow } from '../workflowSpace';
import { workflowKey } from '../workflowSpace';

/** What the planner is asked on one turn (a planner decision of the MSMDP, mao-arag.md §3.1). */
export interface PlanRequest {
  /** The question this turn answers: the user's at the top level, a sub-question below it. */
  question: string;
  level: PlanLevel;
  /** 1-based planner turn. */
  turn: number;
}

/** A planner's decision as written: the text the validity gate reads, and who wrote it. */
export interface PlanReply {
  text: string;
  /** `prompt` (an LLM planner), `policy` (the learned policy), `fixed` (a fixed workflow). */
  source: string;
  /** Extra facts for the trace (the policy's probability of its choice, ...). */
  detail?: Record<string, unknown>;
}

/**
 * The Planner agent: reads a question and writes a workflow. Every planner yields text, so an
 * LLM's reply, a learned policy's choice and a fixed workflow all pass the same validity gate.
 */
export interface WorkflowPlanner {
  readonly source: string;
  plan(request: PlanRequest, ctx: RunContext): Promise<PlanReply>;
}

/**
 * The prompted planner (MAO-ARAG w/o training, or the LLM a trainer updates): one call per turn,
 * the top-level prompt or the sub-question prompt. A reply the model port cannot use at all is
 * an invalid plan (format penalty, fallback), not a failed run.
 */
export function promptPlanner(vars: (request: PlanRequest) => Record<string, unknown> = () => ({})): WorkflowPlanner {
  return {
    source: 'prompt',
    async plan(request, ctx) {
      const prompt = request.level === 'top' ? maoPlannerPrompt : maoSubPlannerPrompt;
      try {
        const { output } = await ctx.model.call({ prompt, vars: { question: request.question, ...vars(request) } });
        return { text: output.workflow, source: 'prompt' };
      } catch (error) {
        if (error instanceof ModelOutputError) return { text: error.details.raw.at(-1) ?? '', source: 'prompt', detail: { unusable: error.details.issues } };
        throw error;
      }
    },
  };
}

/** A planner that always writes the same workflows: `top` for the question, `sub` for each sub-question. */
export function fixedPlanner(top: Workflow, sub: Workflow): WorkflowPlanner {
  return {
    source: 'fixed',
    async plan(request) {
      return { text: workflowKey(request.level === 'top' ? top : sub).split('+').join(','), source: 'fixed' };
    },
  };
}
