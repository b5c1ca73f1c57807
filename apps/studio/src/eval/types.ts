import type { StudioEval, StudioEvalRow, StudioEvalSummary } from '../api/client';

/** A workflow's row of summary.json, with the fields the runner writes beyond the studio's type. */
export type WorkflowStats = StudioEvalSummary['workflows'][string] & {
  /** Answers with a verdict, and those the judge could not read (left out of correctness). */
  judged?: number;
  judge_errors?: number;
};

/** summary.json as the runner writes it (its Summary): the studio's type plus the fields the page also shows. */
export type EvalSummary = Omit<StudioEvalSummary, 'judge' | 'workflows'> & {
  corpus?: { setting: string; name: string; passages: number; source?: string; unresolved_gold?: { questions: number; titles: number } };
  judge?: NonNullable<StudioEvalSummary['judge']> & {
    calls?: number;
    cached?: number;
    prompt_tokens?: number;
    completion_tokens?: number;
    tokens_estimated?: boolean;
    errors?: number;
  };
  retrieval_metrics?: string;
  sweep?: { workflow: string; params: Record<string, unknown[]> };
  workflows: Record<string, WorkflowStats>;
};

export type BreakdownCell = StudioEvalSummary['breakdown']['hops'][number] & { ndcg_at_5?: number | null; all_pass?: number | null };

/** The eval the page shows, with its summary read as the runner's. */
export type EvalData = Omit<StudioEval, 'summary'> & { summary: EvalSummary };

export type EvalRow = StudioEvalRow;

/** The workflows in the summary's order (the order they were named; the first is the comparisons' reference). */
export const workflowIds = (summary: EvalSummary): string[] => Object.keys(summary.workflows ?? {});

/** Whether the eval was judged: any workflow has a correctness figure. */
export const isJudged = (summary: EvalSummary): boolean => Object.values(summary.workflows ?? {}).some((w) => w.correctness !== null && w.correctness !== undefined);

/**
 * Whether the eval has a judge (summary.json's `judge`), as the server's verdicts do: its answers
 * count right by verdict, even while some workflow has no correctness figure yet (judging stopped).
 */
export const hasJudge = (summary: EvalSummary): boolean => summary.judge !== undefined;

export const verdictKey = (workflow: string, questionId: string): string => `${workflow}\u0000${questionId}`;
