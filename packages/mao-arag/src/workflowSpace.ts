/**
 * MAO-ARAG's action space (mao-arag.md §3.1): the executors a planner may name, the validity
 * rules of a planned workflow (the authors' `is_valid_list`), and the two discrete spaces those
 * rules leave: 18 top-level workflows and 5 for a sub-question's turn.
 */

/** The executor agents, by the paper's abbreviations. */
export const EXECUTORS = ['QR', 'QDS', 'QDP', 'R', 'DS', 'AG', 'AS'] as const;
export type Executor = (typeof EXECUTORS)[number];

/** What each executor does; the planner prompts describe them in these terms. */
export const EXECUTOR_NAMES: Readonly<Record<Executor, string>> = {
  QR: 'Query Rewriter',
  QDS: 'Query Decomposition Serial',
  QDP: 'Query Decomposition Parallel',
  R: 'Retrieval',
  DS: 'Document Selector',
  AG: 'Answer Generator',
  AS: 'Answer Summariser',
};

/** A workflow as the planner writes it: executor names in order. */
export type Workflow = readonly Executor[];

/** The planner's turn: the question itself (top level) or a sub-question of a decomposition. */
export type PlanLevel = 'top' | 'sub';

/** The executors a plan may name at each level (the authors' planner prompts offer these). */
export const PLANNABLE: Readonly<Record<PlanLevel, readonly Executor[]>> = {
  top: ['QR', 'QDS', 'QDP', 'R', 'DS', 'AG'],
  sub: ['R', 'DS', 'AG'],
};

export type ValidityProblem =
  | { kind: 'empty' }
  | { kind: 'unknown'; name: string }
  | { kind: 'repeated'; name: string }
  | { kind: 'decomposition-not-alone'; name: 'QDS' | 'QDP' }
  | { kind: 'no-final-AG' }
  | { kind: 'not-allowed-in-sub-turn'; name: string };

/** A planner's reply read as a workflow: its names in order, and the names that are not executors. */
export interface ParsedPlan {
  /** The reply as the planner wrote it (the rollout's action). */
  text: string;
  /** Every name found, known or not, in order. */
  names: string[];
}

/**
 * Reads a planner's reply: the text after the last `Workflow:` (or the whole reply), split on
 * commas, `+`, arrows and whitespace. Names are upper-cased so `qr, r, ag` reads as QR,R,AG;
 * anything else is kept as written for the validity check to reject.
 */
export function parsePlan(text: string): ParsedPlan {
  const at = text.toLowerCase().lastIndexOf('workflow:');
  const body = (at >= 0 ? text.slice(at + 'workflow:'.length) : text).split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  const names = body
    .replace(/["'`*[\]]/g, ' ')
    .split(/\s*(?:,|\+|->|→|=>|\s)\s*/)
    .map((n) => n.trim().replace(/[.;:]+$/, ''))
    .filter((n) => n !== '')
    .map((n) => (isExecutor(n.toUpperCase()) ? n.toUpperCase() : n));
  return { text, names };
}

export function isExecutor(name: string): name is Executor {
  return (EXECUTORS as readonly string[]).includes(name);
}

/**
 * The authors' validity rules (qa_manager `is_valid_list`), in order: non-empty; no executor
 * twice; every name an executor; QDS or QDP only alone; otherwise the last executor is AG; and
 * a sub-question's turn may not decompose again. AS is the runner's, never the planner's: it
 * merges sub-answers after a decomposition, so a plan that names it is rejected as well.
 */
export function validityProblems(names: readonly string[], level: PlanLevel): ValidityProblem[] {
  const problems: ValidityProblem[] = [];
  if (names.length === 0) return [{ kind: 'empty' }];
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) problems.push({ kind: 'repeated', name });
    seen.add(name);
    if (!isExecutor(name)) problems.push({ kind: 'unknown', name });
    else if (!PLANNABLE[level].includes(name)) problems.push({ kind: 'not-allowed-in-sub-turn', name });
  }
  for (const name of ['QDS', 'QDP'] as const) {
    if (names.includes(name) && names.length !== 1) problems.push({ kind: 'decomposition-not-alone', name });
  }
  const decomposes = names.includes('QDS') || names.includes('QDP');
  if (!decomposes && names.at(-1) !== 'AG') problems.push({ kind: 'no-final-AG' });
  return problems;
}

export function describeProblem(problem: ValidityProblem): string {
  switch (problem.kind) {
    case 'empty':
      return 'the workflow is empty';
    case 'unknown':
      return `"${problem.name}" is not an executor`;
    case 'repeated':
      return `${problem.name} appears twice`;
    case 'decomposition-not-alone':
      return `${problem.name} must be the whole workflow`;
    case 'no-final-AG':
      return 'the workflow does not end with AG';
    case 'not-allowed-in-sub-turn':
      return problem.name === 'AS' ? 'AS is not planned: it merges sub-answers after a decomposition' : `${problem.name} is not available in a sub-question's turn`;
  }
}

/** The workflow the names spell when they are valid at `level`, else undefined. */
export function validWorkflow(names: readonly string[], level: PlanLevel): Workflow | undefined {
  return validityProblems(names, level).length === 0 ? (names as Workflow) : undefined;
}

/** `QR+R+DS+AG`: a workflow as the fixed workflows' ids and the policy file write it. */
export function workflowKey(workflow: Workflow): string {
  return workflow.join('+');
}

/** Every ordering of every subset of `items`, shortest first, in `items` order. */
function arrangements<T>(items: readonly T[]): T[][] {
  const out: T[][] = [[]];
  const extend = (prefix: T[], rest: readonly T[]) => {
    for (let i = 0; i < rest.length; i++) {
      const next = [...prefix, rest[i]!];
      out.push(next);
      extend(next, [...rest.slice(0, i), ...rest.slice(i + 1)]);
    }
  };
  extend([], items);
  return out.sort((a, b) => a.length - b.length);
}

/**
 * Every valid top-level workflow: QDS, QDP, then AG preceded by any ordering of any subset of
 * QR, R and DS (1 + 3 + 6 + 6 = 16): 18 in all. Listed, not searched: the validity rules above
 * accept exactly these (src/workflowSpace.test.ts checks both ways).
 */
export const TOP_LEVEL_WORKFLOWS: readonly Workflow[] = Object.freeze([
  ...arrangements<Executor>(['R', 'DS', 'QR']).map((prefix) => Object.freeze([...prefix, 'AG'] as Executor[])),
  Object.freeze(['QDS'] as Executor[]),
  Object.freeze(['QDP'] as Executor[]),
]);

/** Every valid sub-question workflow: AG, R+AG, DS+AG, R+DS+AG, DS+R+AG. */
export const SUB_LEVEL_WORKFLOWS: readonly Workflow[] = Object.freeze(
  arrangements<Executor>(['R', 'DS']).map((prefix) => Object.freeze([...prefix, 'AG'] as Executor[])),
);

export const WORKFLOW_SPACE: Readonly<Record<PlanLevel, readonly Workflow[]>> = { top: TOP_LEVEL_WORKFLOWS, sub: SUB_LEVEL_WORKFLOWS };

/**
 * What runs when a plan is invalid (documented fallback): retrieval then answer generation,
 * the authors' default pipeline (`QA_Manager.Workflow`), valid at both levels. The format
 * penalty FP is charged all the same.
 */
export const FALLBACK_WORKFLOW: Workflow = Object.freeze(['R', 'AG'] as Executor[]);
