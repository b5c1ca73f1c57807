/**
 * OPERA (opera.md, "Critical path") as plain async code, for the engine-overhead benchmark: the
 * same agents, prompts, model port and retriever as the XState workflow, in the same order, with
 * no machine, no RunContext and no trace. Its trajectory memory must equal the workflow's on
 * every question (engineOpera.ts checks), or the comparison would not be of one algorithm.
 */
import { findPlaceholders, loopProgress, readySteps, substitutePlaceholders, type ModelPort, type NoProgressKind, type PlanStep, type Query, type RetrieverPort } from '@multihop/core';
import {
  analyseEvidence,
  lastStepAnswer,
  memoryLines,
  OPERA_DEFAULTS,
  planSubGoals,
  resolvedAnswers,
  rewriteQuery,
  synthesizeAnswer,
  type Attempt,
  type OperaSettings,
  type TrajectoryEntry,
  type TrajectoryMemory,
} from '@multihop/opera';

export interface OperaPlainResult {
  answer: string;
  plan: PlanStep[];
  memory: TrajectoryMemory;
  stopReason?: string;
}

export async function operaPlain(query: Query, model: ModelPort, retriever: RetrieverPort, settings: OperaSettings = OPERA_DEFAULTS): Promise<OperaPlainResult> {
  // Plan Agent, one repair round per `planRepairs`, then the single-step fallback.
  let draft = await planSubGoals(model, query.text);
  for (let attempts = 1; draft.problems.length > 0 && attempts <= settings.planRepairs; attempts++) {
    draft = await planSubGoals(model, query.text, { previous: draft.raw, problems: draft.problems });
  }
  const plan: PlanStep[] = draft.problems.length === 0 ? draft.plan.steps : [{ id: '1', question: query.text, dependsOn: [] }];

  const memory: TrajectoryMemory = [];
  let stopReason: string | undefined;
  for (;;) {
    const done = new Set(memory.map((e) => e.stepId));
    const step = plan.find((s) => !done.has(s.id));
    if (!step) break;
    if (memory.length >= settings.maxSteps) {
      stopReason = 'step-budget';
      break;
    }
    const answers = resolvedAnswers(memory);
    if (readySteps({ steps: [step] }, answers).length === 0) {
      // A dependency without an answer: skip rather than send a hollow query.
      memory.push({ stepId: step.id, planned: step.question, subGoal: step.question, substitutions: [], attempts: [], answer: '', status: 'skipped' });
      continue;
    }
    const substitutions = findPlaceholders(step.question).flatMap((p) =>
      answers[p.stepRef] !== undefined ? [{ placeholder: p.raw, stepId: p.stepRef, answer: answers[p.stepRef]! }] : [],
    );
    const subGoal = substitutePlaceholders(step.question, answers);

    // Retrieve top-k sentences, analyse, rewrite while the evidence is insufficient and rewrites are
    // left; a rewrite that repeats a query, or a retrieval after one that finds no sentence this
    // sub-goal has not read, ends the loop with the best guess (the machine's no-progress stops).
    const attempts: Attempt[] = [];
    let searchQuery = subGoal;
    let pendingRewrite: Attempt['rewrite'];
    let rewrites = 0;
    let noProgress: NoProgressKind | undefined;
    for (;;) {
      const found = await retriever.search(searchQuery, { level: 'sentence', k: settings.topK });
      const hits = found.map((h) => ({ id: h.id, title: h.title, text: h.text, rank: h.rank, score: h.score, ...(h.passageId ? { passageId: h.passageId } : {}) }));
      if (rewrites > 0 && !loopProgress({ query: searchQuery, earlierQueries: [], retrievedIds: hits.map((h) => h.id), seenIds: attempts.flatMap((a) => a.hits.map((h) => h.id)) }).progress) {
        noProgress = 'no-new-passage';
        break;
      }
      const verdict = await analyseEvidence(model, { question: query.text, subGoal, memory: memoryLines(memory), hits });
      attempts.push({ query: searchQuery, hits, status: verdict.status, answer: verdict.answer, analysis: verdict.analysis, ...(pendingRewrite ? { rewrite: pendingRewrite } : {}) });
      pendingRewrite = undefined;
      if ((verdict.status === 'yes' && verdict.answer !== '') || rewrites >= settings.maxRewrites) break;
      const next = await rewriteQuery(model, { subGoal, query: searchQuery, analysis: verdict.analysis, previousQueries: attempts.map((a) => a.query) });
      const nextQuery = next.query || searchQuery;
      rewrites += 1;
      if (!loopProgress({ query: nextQuery, earlierQueries: attempts.map((a) => a.query) }).progress) {
        noProgress = 'repeated-query';
        break;
      }
      searchQuery = nextQuery;
      pendingRewrite = { strategy: next.strategy, keywords: next.keywords };
    }
    const last = attempts.at(-1)!;
    const entry: TrajectoryEntry = {
      stepId: step.id,
      planned: step.question,
      subGoal,
      substitutions,
      attempts,
      answer: last.answer,
      status: last.status === 'yes' && last.answer !== '' ? 'yes' : 'no',
      rewrites,
      ...(noProgress ? { noProgress } : {}),
    };
    memory.push(entry);
    if (noProgress) stopReason = 'no-progress';
    else if (entry.status === 'no' && !stopReason) stopReason = 'step-unresolved';
  }

  // The paper's final answer (synthesis 'last-step'), or this project's synthesis call.
  const answer = settings.synthesis === 'llm' ? (await synthesizeAnswer(model, query.text, memory)).answer || ([...memory].reverse().find((e) => e.answer)?.answer ?? '') : (lastStepAnswer(memory)?.answer ?? '');
  return { answer, plan, memory, ...(stopReason ? { stopReason } : {}) };
}
