import type { SearchHit } from '@multihop/core';

/** One retrieve → analyse round of a sub-goal: the query, what came back, the verdict. */
export interface Attempt {
  query: string;
  /** Top-k sentence chunks (ids, passage ids, text), kept so rewards and rollouts can be replayed. */
  hits: Array<Pick<SearchHit, 'id' | 'title' | 'text' | 'rank' | 'score' | 'passageId'>>;
  status: 'yes' | 'no';
  answer: string;
  analysis: string;
  /** Set when this attempt's query came from the Rewrite Agent. */
  rewrite?: { strategy: string; keywords: string[] };
}

/** What the Trajectory Memory Component keeps per sub-goal (opera.md, "Component map"). */
export interface TrajectoryEntry {
  stepId: string;
  /** The sub-goal as planned, placeholders and all. */
  planned: string;
  /** The sub-goal after placeholder substitution from earlier entries. */
  subGoal: string;
  /** Placeholders that were filled, `[raw] → answer`. */
  substitutions: Array<{ placeholder: string; stepId: string; answer: string }>;
  attempts: Attempt[];
  /** The resolved entity; empty when the step was skipped. */
  answer: string;
  /** `yes`: the analysis found the evidence sufficient; `no`: rewrites ran out, best guess kept; `skipped`: a dependency had no answer. */
  status: 'yes' | 'no' | 'skipped';
  /** Rewrite Agent calls for this sub-goal, including one that stopped the loop (absent on a skipped step). */
  rewrites?: number;
  /** Set when the rewrite loop stopped early, best guess kept: a rewrite repeated a query, or found no new sentence. */
  noProgress?: 'repeated-query' | 'no-new-passage';
}

/**
 * The Trajectory Memory Component as plain JSON (it lives in the machine's context, so it is
 * persisted with the snapshot): one entry per executed sub-goal, in execution order.
 */
export type TrajectoryMemory = TrajectoryEntry[];

/**
 * Answers usable for placeholder substitution, keyed by step id. A skipped step and an
 * empty answer do not count: substituting nothing would send a hollow query to the retriever.
 */
export function resolvedAnswers(memory: TrajectoryMemory): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const entry of memory) if (entry.status !== 'skipped' && entry.answer.trim() !== '') answers[entry.stepId] = entry.answer;
  return answers;
}

/** The memory as the prompts show it: one line per resolved sub-goal. */
export function memoryLines(memory: TrajectoryMemory): string[] {
  return memory.map((e) => `step ${e.stepId}: ${e.subGoal} → ${e.answer || '(no answer)'}${e.status === 'yes' ? '' : ` [${e.status}]`}`);
}
