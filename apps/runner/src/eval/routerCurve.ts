import { routeChoice, type RoutePrediction } from '@multihop/core';
import { comparePaired, formatPValue, mean } from '@multihop/metrics';
import { countBy } from './countBy';
import { rowTokens, type ResultRow } from './ResultsLog';

/** A single candidate's quality and tokens per question over the curve's questions. */
export interface CurveSingle {
  workflow: string;
  quality: number;
  tokens: number;
}

/** The router replayed at one λ: each question scored with the chosen candidate's own run. */
export interface RouterCurvePoint {
  lambda: number;
  /** The λ the router itself ran with in this eval. */
  routed_with: boolean;
  quality: number;
  em: number;
  f1: number;
  tokens: number;
  llm_calls: number;
  /** How many questions each candidate was chosen for, most first. */
  choices: Record<string, number>;
  /** The best single candidate costing no more tokens per question than this point (null: none is that cheap). */
  best_within: CurveSingle | null;
  /** This point minus best_within on the quality measure, paired by question. */
  vs_best_within: { diff: number; diff_ci95: [number, number]; p_value: number } | null;
  /** At least the best single candidate's quality at no more than its tokens (the router's bar). */
  meets_best_single: boolean;
}

/** The router's own runs on the curve's questions, to hold the replay at its λ against. */
export interface RouterOwnRuns {
  /** Curve questions the router itself has a scored run on. */
  n: number;
  quality: number;
  tokens: number;
  /**
   * Of those, how many the replay at its λ scored with a run giving the router's own answer at its
   * own tokens. Fewer than n: the replay is not what it did (a sampling model, or a router file
   * changed since the eval ran).
   */
  same_run: number;
}

/**
 * A router's quality–cost curve on an eval that ran it beside every candidate: its choice at each
 * λ of its policy, replayed from its predictions (recomputed when the summary is written, from
 * its router file then) and scored with the candidates' own runs (nothing is run again). With a
 * deterministic model and an unchanged file, the point at the router's own λ is its own runs
 * (`own`, `same_run` = n).
 */
export interface RouterCurve {
  router: string;
  lambda: number;
  /** correctness when judged, else em. */
  measure: 'correctness' | 'em';
  /** Questions where every candidate has a scored run. */
  n: number;
  /** The best single candidate on these questions in hindsight (highest quality, then fewest tokens). */
  best_single: CurveSingle;
  points: RouterCurvePoint[];
  /** null: the router has no scored run on these questions. */
  own: RouterOwnRuns | null;
  /** When it routes among fewer than its candidates (a Pareto-front pool): those its policy predicts, in the candidates' order. */
  routes_among?: string[];
}

export interface RouterCurveInput {
  id: string;
  candidates: readonly string[];
  lambda: number;
  lambdas: readonly number[];
  /** The router's predictions by question id. */
  predictions: ReadonlyMap<string, readonly RoutePrediction[]>;
}

/**
 * The curve, or undefined when a candidate did not run here or no question has every candidate's run.
 * `rows` are the runs as summarize scores them (a failure of the workflow's own as a wrong answer,
 * other failures left out).
 */
export function routerCurve(rows: readonly ResultRow[], router: RouterCurveInput, questionIds: readonly string[], correctOf: (r: ResultRow) => number | null): RouterCurve | undefined {
  const judged = rows.some((r) => router.candidates.includes(r.workflow) && correctOf(r) !== null);
  const qualityOf = (r: ResultRow) => (judged ? correctOf(r) : r.metrics.em);
  const runs = new Map<string, Map<string, ResultRow>>();
  for (const r of rows) {
    if (!router.candidates.includes(r.workflow) || qualityOf(r) === null) continue;
    (runs.get(r.questionId) ?? runs.set(r.questionId, new Map()).get(r.questionId)!).set(r.workflow, r);
  }
  const questions = questionIds.filter((q) => router.predictions.has(q) && router.candidates.every((c) => runs.get(q)?.has(c)));
  if (questions.length === 0) return undefined;
  const run = (q: string, workflow: string) => runs.get(q)!.get(workflow)!;
  const singles: CurveSingle[] = router.candidates.map((workflow) => ({
    workflow,
    quality: mean(questions.map((q) => qualityOf(run(q, workflow))!)),
    tokens: mean(questions.map((q) => rowTokens(run(q, workflow)))),
  }));
  const better = (a: CurveSingle, b: CurveSingle) => (b.quality > a.quality || (b.quality === a.quality && b.tokens < a.tokens) ? b : a);
  const bestSingle = singles.reduce(better);
  // With no finite value the graph takes the first candidate it routes among (its policy's predictions come in that order).
  const choose = (q: string, lambda: number) => {
    const predictions = router.predictions.get(q)!.filter((p) => router.candidates.includes(p.workflow));
    return run(q, routeChoice(predictions, lambda) ?? predictions[0]?.workflow ?? router.candidates[0]!);
  };
  // Every λ the policy names, and the one it ran with, whether or not its list has it.
  const lambdas = [...new Set([...router.lambdas, router.lambda])].sort((a, b) => a - b);
  const chosenAt = new Map(lambdas.map((lambda) => [lambda, questions.map((q) => choose(q, lambda))]));
  const points = lambdas.map((lambda): RouterCurvePoint => {
    const chosen = chosenAt.get(lambda)!;
    const quality = mean(chosen.map((r) => qualityOf(r)!));
    const tokens = mean(chosen.map(rowTokens));
    const within = singles.filter((s) => s.tokens <= tokens);
    const bestWithin = within.length ? within.reduce(better) : null;
    let vs: RouterCurvePoint['vs_best_within'] = null;
    if (bestWithin) {
      const c = comparePaired(chosen.map((r) => qualityOf(r)!), questions.map((q) => qualityOf(run(q, bestWithin.workflow))!), { seed: 7, resamples: 2000, permutations: 5000 });
      vs = { diff: c.meanDifference, diff_ci95: [c.lower, c.upper], p_value: c.pValue };
    }
    return {
      lambda,
      routed_with: lambda === router.lambda,
      quality,
      em: mean(chosen.map((r) => r.metrics.em)),
      f1: mean(chosen.map((r) => r.metrics.f1)),
      tokens,
      llm_calls: mean(chosen.map((r) => r.usage.llmCalls)),
      choices: countBy(chosen.map((r) => r.workflow)),
      best_within: bestWithin,
      vs_best_within: vs,
      meets_best_single: quality >= bestSingle.quality && tokens <= bestSingle.tokens,
    };
  });
  // The router's own scored runs beside the replay at its λ, question by question.
  const mine = new Map(rows.filter((r) => r.workflow === router.id && qualityOf(r) !== null).map((r) => [r.questionId, r]));
  const pairs = questions.flatMap((q, i) => (mine.has(q) ? [{ ran: mine.get(q)!, replayed: chosenAt.get(router.lambda)![i]! }] : []));
  const own: RouterOwnRuns | null = pairs.length
    ? {
        n: pairs.length,
        quality: mean(pairs.map((p) => qualityOf(p.ran)!)),
        tokens: mean(pairs.map((p) => rowTokens(p.ran))),
        same_run: pairs.filter((p) => p.ran.prediction === p.replayed.prediction && rowTokens(p.ran) === rowTokens(p.replayed)).length,
      }
    : null;
  const predicted = new Set(questions.flatMap((q) => router.predictions.get(q)!.map((p) => p.workflow)));
  const routesAmong = router.candidates.filter((c) => predicted.has(c));
  return {
    router: router.id, lambda: router.lambda, measure: judged ? 'correctness' : 'em', n: questions.length, best_single: bestSingle, points, own,
    ...(routesAmong.length < router.candidates.length ? { routes_among: routesAmong } : {}),
  };
}

/** The curve as a Markdown section of summary.md. */
export function renderRouterCurve(curve: RouterCurve, correctName = 'Correct'): string[] {
  const name = curve.measure === 'correctness' ? correctName : 'EM';
  const b = curve.best_single;
  const lines = [
    '',
    `## ${curve.router} across λ, replayed from the candidates' runs`,
    '',
    `At each λ, ${curve.router}'s choice on each of the ${curve.n} questions where every candidate ran (from its predictions, recomputed now from its router file: the candidate with the highest quality − λ·tokens/1000) is scored with that candidate's own run here; nothing is run again. ★ marks the λ it ran with. Best single candidate on these questions, in hindsight: **${b.workflow}**, ${name} ${b.quality.toFixed(3)} at ${Math.round(b.tokens)} tokens/q. Last column: ${name} at least that at no more tokens.${curve.routes_among ? ` It routes among ${curve.routes_among.length} of its candidates: ${curve.routes_among.join(', ')} (its policy predicts only these); the best single workflow and the oracle are taken over all of them.` : ''}`,
    '',
    `| λ | ${name} | tokens/q | chosen most | best single within these tokens | its ${name} | Δ ${name} | 95% CI | p | ≥ ${b.workflow} at ≤ its tokens |`,
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const p of curve.points) {
    const top = Object.entries(p.choices).slice(0, 3).map(([id, n]) => `${id} ${n}`).join(', ');
    const w = p.best_within;
    const v = p.vs_best_within;
    lines.push(
      `| ${p.lambda}${p.routed_with ? ' ★' : ''} | ${p.quality.toFixed(3)} | ${Math.round(p.tokens)} | ${top} | ${w ? `${w.workflow} (${Math.round(w.tokens)})` : '— (none this cheap)'} | ${w ? w.quality.toFixed(3) : '—'} | ${v ? `${v.diff >= 0 ? '+' : ''}${v.diff.toFixed(3)}` : '—'} | ${v ? `[${v.diff_ci95[0].toFixed(3)}, ${v.diff_ci95[1].toFixed(3)}]` : '—'} | ${v ? formatPValue(v.p_value) : '—'} | ${p.meets_best_single ? 'yes' : 'no'} |`,
    );
  }
  const o = curve.own;
  if (o) {
    const agrees = o.same_run === o.n ? `the replay at ★ chose the run it made on all ${o.n}` : `**the replay at ★ chose the run it made on only ${o.same_run} of ${o.n}**: a sampling model, or a router file changed since these runs, so the curve is an estimate`;
    lines.push('', `Its own runs on ${o.n === curve.n ? 'these' : `${o.n} of these`} questions: ${name} ${o.quality.toFixed(3)} at ${Math.round(o.tokens)} tokens/q; ${agrees}.`);
  }
  return lines;
}
