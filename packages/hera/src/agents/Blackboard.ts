import type { SearchHit } from '@multihop/core';

/**
 * What a step hands to the steps that depend on it: the query's decomposition and the answers
 * found for it, the passages gathered, the question's rewrite, the Context Validator's verdict.
 * A step receives the union of its dependencies' boards and passes it on with its own work
 * added, so an agent sees everything upstream of it and nothing of a parallel branch.
 */
export interface Blackboard {
  /** The Query Decomposer's sub-questions, ids 1…n as their placeholders count them. */
  subQuestions: string[];
  /** Answers to sub-questions, by id ("1", "2", …). */
  subAnswers: Record<string, string>;
  /** Sub-question ids this branch works on (set by a Retriever, read by the steps after it). */
  focus: string[];
  /** The Query Rewriter's search query for the whole question. */
  searchQuery?: string;
  /** Searches the Context Validator asked for; the next Retriever runs them. */
  followUps: string[];
  passages: SearchHit[];
  /** Answer Generator answers to the whole question, in step order. */
  answers: string[];
  /** The Conclude Agent's answer. */
  conclusion?: string;
  sufficient?: boolean;
}

export const emptyBoard = (): Blackboard => ({ subQuestions: [], subAnswers: {}, focus: [], followUps: [], passages: [], answers: [] });

/** The boards of several dependencies as one (in step order: later values win, lists are unions). */
export function mergeBoards(boards: readonly Blackboard[]): Blackboard {
  const out = emptyBoard();
  const seen = new Set<string>();
  for (const b of boards) {
    if (out.subQuestions.length === 0) out.subQuestions = [...b.subQuestions];
    Object.assign(out.subAnswers, b.subAnswers);
    for (const f of b.focus) if (!out.focus.includes(f)) out.focus.push(f);
    if (b.searchQuery !== undefined) out.searchQuery = b.searchQuery;
    for (const f of b.followUps) if (!out.followUps.includes(f)) out.followUps.push(f);
    for (const p of b.passages) {
      if (seen.has(p.id)) continue;
      seen.add(p.id);
      out.passages.push(p);
    }
    for (const a of b.answers) if (!out.answers.includes(a)) out.answers.push(a);
    if (b.conclusion !== undefined) out.conclusion = b.conclusion;
    if (b.sufficient !== undefined) out.sufficient = b.sufficient;
  }
  return out;
}

/** The run's answer from every step's board: the Conclude Agent's, else the last Answer Generator's, else the last sub-answer. */
export function finalAnswer(board: Blackboard): string {
  if (board.conclusion !== undefined) return board.conclusion;
  if (board.answers.length > 0) return board.answers.at(-1)!;
  const ids = Object.keys(board.subAnswers).sort((a, b) => Number(a) - Number(b));
  return ids.length > 0 ? board.subAnswers[ids.at(-1)!]! : '';
}

/** Sub-questions with their answers, and the candidate answers, as the prompts' `trajectory`. */
export function trajectoryOf(board: Blackboard): Array<{ step: string; subGoal: string; answer: string }> {
  const subs = board.subQuestions.flatMap((q, i) => {
    const id = String(i + 1);
    return board.subAnswers[id] !== undefined ? [{ step: id, subGoal: q, answer: board.subAnswers[id]! }] : [];
  });
  return [...subs, ...board.answers.map((answer) => ({ step: 'answer', subGoal: 'the query', answer }))];
}
