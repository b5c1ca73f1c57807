import { ConfigError, type EvalOutcome, type EvalSource } from '@multihop/core';
import { mean, mulberry32 } from '@multihop/metrics';
import type { z } from 'zod';
import { L2_GRID, LAMBDA_GRID, type routerTrainerSettingsSchema } from './settings';
import { fitProjection, project, type EmbeddingProjection } from './embedding';
import { FEATURE_NAMES, FEATURE_SPEC_VERSION, questionFeatures } from './features';
import { fitLogistic, fitLogTokens, fitScaler, frontOf, rank, scale, type CandidateModel } from './predictor';
import { featureNames, ROUTER_FORMAT, type DatasetRow, type LambdaRow, type RouterFile, type RouterPool } from './routerFile';

/** What trainRouter takes: `multihop train router`'s settings, parsed (λ and L2 undefined: chosen by cross-validation). */
export type RouterTrainingSettings = z.output<typeof routerTrainerSettingsSchema>;

/**
 * How cross-validation chooses λ and L2, aimed at the router's bar dataset by dataset (each
 * training dataset's own best single workflow, every dataset weighing the same): first the rows
 * whose routing stays within that workflow's tokens on the most datasets; among them the largest
 * summed quality margin over those workflows (a sum, not a count of datasets met: a count
 * rewards exact ties, which on a few hundred questions are luck); then the fewest tokens; then
 * the larger λ.
 */
export const SELECTION_RULE =
  'most training datasets on which cross-validated routing stays within the tokens of that dataset’s best single workflow; then the largest quality margin over those workflows, summed over the datasets; then the fewest tokens; then the larger λ';

/** Whether row `a` beats row `b` under SELECTION_RULE. */
export function preferred(a: LambdaRow, b: LambdaRow): boolean {
  const affordable = (r: LambdaRow) => r.datasets.filter((d) => d.tokens <= d.bestTokens).length;
  const margin = (r: LambdaRow) => r.datasets.reduce((s, d) => s + d.quality - d.bestQuality, 0);
  if (affordable(a) !== affordable(b)) return affordable(a) > affordable(b);
  if (Math.abs(margin(a) - margin(b)) > 1e-12) return margin(a) > margin(b);
  if (a.tokens !== b.tokens) return a.tokens < b.tokens;
  return a.lambda > b.lambda;
}

/** The row of a λ × L2 × pool study the trainer takes: the one SELECTION_RULE prefers, among all rows or among those at a given λ. */
export function chooseRow(grid: readonly LambdaRow[], lambda?: number): LambdaRow {
  const rows = lambda === undefined ? grid : grid.filter((r) => r.lambda === lambda);
  return rows.reduce((a, b) => (preferred(b, a) ? b : a));
}

/**
 * Failures of the infrastructure, not of the workflow: such outcomes say nothing about the
 * question and are left out. A failure that is the workflow's own (`ownFailure`) is a wrong
 * answer at the tokens it spent, and is learnt from.
 */
const INFRASTRUCTURE = (o: EvalOutcome) => o.status === 'error' && !o.ownFailure;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

interface Example {
  key: string;
  dataset: string;
  id: string;
  question: string;
  features: number[];
  /** By candidate: realised quality and tokens. */
  outcomes: Map<string, { quality: number; tokens: number }>;
}

/** The training questions' embeddings, for `settings.embedding` > 0 (the trainer embeds them: see embedQuestions). */
export interface QuestionEmbeddings {
  /** The spec the embedder was resolved from, and its id. */
  spec: string;
  embedder: string;
  /** By question text. */
  vectors: ReadonlyMap<string, readonly number[]>;
}

/**
 * Learns the router from finished evals: one example per question that every candidate ran,
 * features of its wording (and, with `settings.embedding` = k > 0, the first k principal
 * components of its embedding), each candidate's realised quality (the judge's verdict, else
 * F1) and tokens. Chooses λ and L2 by k-fold cross-validation unless given, by SELECTION_RULE
 * (each training dataset against its own best single workflow). Seeded: the same evals and
 * settings give the same file.
 */
export function trainRouter(
  outcomes: readonly EvalOutcome[],
  sources: readonly EvalSource[],
  settings: RouterTrainingSettings,
  log: (line: string) => void = () => {},
  embeddings?: QuestionEmbeddings,
): RouterFile {
  // Each question from one eval: two evals of the same questions (another setting, another judge,
  // other workflows, an overlap, one directory given twice) would be learnt as one question, the
  // later eval's runs replacing the earlier's. By the evals' own question lists (a caller that gives
  // none is held, below, to one run per candidate and question).
  const holders = new Map<string, string[]>();
  for (const s of sources) {
    for (const id of new Set(s.questionIds)) {
      const key = `${s.dataset}\u0000${id}`;
      holders.set(key, [...(holders.get(key) ?? []), s.dir]);
    }
  }
  const shared = [...holders].filter(([, dirs]) => dirs.length > 1);
  if (shared.length) {
    const [key, dirs] = shared[0]!;
    const [dataset, id] = key.split('\u0000');
    throw new ConfigError(
      `${plural(shared.length, 'question')} ${shared.length === 1 ? 'is' : 'are'} in more than one of the evals given (e.g. ${dataset} ${id}, in ${[...new Set(dirs)].join(' and ')}${new Set(dirs).size < dirs.length ? ', given twice' : ''}): each question must come from one eval, or the evals' runs of it would be learnt as one question, the later replacing the earlier; give evals of other questions (--offset, --limit, --part), each once`,
    );
  }
  const present = [...new Set(outcomes.map((o) => o.workflow))].filter((w) => w !== 'router');
  const wanted = settings.candidates.split(',').map((s) => s.trim()).filter(Boolean);
  const repeated = wanted.filter((w, i) => wanted.indexOf(w) < i);
  if (repeated.length) throw new ConfigError(`router.candidates names ${[...new Set(repeated)].join(', ')} more than once; name each candidate once`);
  if (wanted.includes('router')) throw new ConfigError('router.candidates: the router cannot be one of its own candidates (its runs in an eval are routed runs of the others)');
  const unknown = wanted.filter((w) => !present.includes(w));
  if (unknown.length) throw new ConfigError(`router.candidates: ${unknown.join(', ')} not in the evals given (they ran: ${present.join(', ')})`);
  // A candidate must have run in every eval (each `--from` directory), or its predictions would be blind to some questions.
  const byDataset = new Map<string, Set<string>>();
  for (const o of outcomes) (byDataset.get(o.dataset) ?? byDataset.set(o.dataset, new Set()).get(o.dataset)!).add(o.workflow);
  const lackingIn = (w: string): string[] =>
    sources.length ? sources.filter((s) => !s.workflows.includes(w)).map((s) => s.dir) : [...byDataset].filter(([, ran]) => !ran.has(w)).map(([dataset]) => dataset);
  const everywhere = present.filter((w) => lackingIn(w).length === 0);
  const candidates = wanted.length ? wanted : everywhere;
  const partial = wanted.filter((w) => !everywhere.includes(w));
  if (partial.length) throw new ConfigError(`router.candidates: ${partial.map((w) => `${w} did not run in ${lackingIn(w).join(', ')}`).join('; ')}`);
  if (!wanted.length) for (const w of present.filter((w) => !everywhere.includes(w))) log(`not a candidate: ${w} (did not run in ${lackingIn(w).join(', ')})`);
  if (candidates.length < 2) throw new ConfigError(`the router needs at least two candidate workflows that ran in every eval given; found ${candidates.join(', ') || 'none'}`);
  for (const o of outcomes) {
    if (!candidates.includes(o.workflow) || INFRASTRUCTURE(o)) continue;
    const bad = !Number.isFinite(o.tokens) || o.tokens < 0 ? `tokens ${o.tokens}` : !Number.isFinite(o.f1) || o.f1 < 0 || o.f1 > 1 ? `F1 ${o.f1}` : undefined;
    if (bad) throw new ConfigError(`${o.dataset}, question ${o.questionId}, ${o.workflow}: ${bad} is not a valid outcome (tokens ≥ 0, F1 in [0, 1])`);
  }

  if (!sources.length) {
    const seen = new Set<string>();
    for (const o of outcomes) {
      if (!candidates.includes(o.workflow)) continue;
      const pair = `${o.dataset}\u0000${o.questionId}\u0000${o.workflow}`;
      if (seen.has(pair)) throw new ConfigError(`${o.dataset}, question ${o.questionId}, ${o.workflow}: given twice; each candidate's run of a question once`);
      seen.add(pair);
    }
  }

  // The judge's verdict when the evals were judged (any answer has one), else F1. With verdicts, a
  // question some candidate's answer has none on (a judge error, an answer not judged yet, an eval
  // not judged) is left out, by eval, rather than the whole router falling back to F1.
  // A failed run's 0 is its scoring, not a verdict: only answers count in telling whether the evals were judged.
  const target: 'correctness' | 'f1' = outcomes.some((o) => candidates.includes(o.workflow) && o.status !== 'error' && o.correct !== null) ? 'correctness' : 'f1';
  if (target === 'f1') log('no answer in the evals given has a verdict (none was judged): the target is F1');
  const examples = new Map<string, Example>();
  const dropped = new Set<string>();
  const unjudged = new Set<string>();
  for (const o of outcomes) {
    if (!candidates.includes(o.workflow)) continue;
    const key = `${o.dataset}\u0000${o.questionId}`;
    if (INFRASTRUCTURE(o)) {
      dropped.add(key);
      continue;
    }
    if (target === 'correctness' && o.correct === null) {
      unjudged.add(key);
      continue;
    }
    const example = examples.get(key) ?? { key, dataset: o.dataset, id: o.questionId, question: o.question, features: [], outcomes: new Map() };
    example.outcomes.set(o.workflow, { quality: target === 'correctness' ? o.correct! : o.f1, tokens: o.tokens });
    examples.set(key, example);
  }
  const leftOut = (key: string) => dropped.has(key) || unjudged.has(key);
  const complete = [...examples.values()].filter((e) => !leftOut(e.key) && candidates.every((c) => e.outcomes.has(c)));
  // Questions some candidate has no run on (an eval stopped before it finished).
  const unrun = new Set([...examples.values()].filter((e) => !leftOut(e.key) && !candidates.every((c) => e.outcomes.has(c))).map((e) => e.key));
  // Each kind counted by eval (by dataset for a caller that gives no sources), so the line names where to look.
  const inSource = (s: EvalSource, key: string): boolean => holders.get(key)?.includes(s.dir) ?? false;
  const byEval = (keys: ReadonlySet<string>): string =>
    (sources.length
      ? sources.map((s) => ({ where: s.dir, n: [...keys].filter((k) => inSource(s, k)).length }))
      : [...byDataset.keys()].map((d) => ({ where: d, n: [...keys].filter((k) => k.split('\u0000')[0] === d).length }))
    )
      .filter((u) => u.n > 0)
      .map((u) => `${u.n} of ${u.where}`)
      .join(', ');
  const noVerdict = new Set([...unjudged].filter((k) => !dropped.has(k)));
  if (complete.length < 20) {
    throw new ConfigError(
      `the router needs at least 20 questions every candidate ran without an outage${target === 'correctness' ? ', each answer judged' : ''}; the evals given (${sources.map((s) => s.dir).join(', ') || [...byDataset.keys()].join(', ')}) have ${complete.length}${dropped.size ? `; ${dropped.size} left out for a candidate's outage (${byEval(dropped)})` : ''}${noVerdict.size ? `; ${noVerdict.size} for an answer without a verdict (${byEval(noVerdict)}: a re-run of that eval with the same --out judges those not judged yet)` : ''}${unrun.size ? `; ${unrun.size} for a candidate that has no run on them (${byEval(unrun)})` : ''}`,
    );
  }
  if (dropped.size) log(`left out ${plural(dropped.size, 'question')} on which some candidate failed for a reason that says nothing about the question (an outage; a failure that is the workflow's own is learnt from as a wrong answer): ${byEval(dropped)}; a re-run of that eval with the same --out runs them again`);
  if (noVerdict.size) log(`left out ${plural(noVerdict.size, 'question')} on which some candidate's answer has no verdict (a judge error, an answer not judged yet, an eval not judged): ${byEval(noVerdict)}; a re-run of that eval with the same --out judges the answers not judged yet and asks again where the judge's call failed (a reply the judge prompt could not read is not asked again: see its judgements.jsonl)`);
  if (unrun.size) log(`left out ${plural(unrun.size, 'question')} some candidate has no run on (an eval stopped before it finished?): ${byEval(unrun)}`);
  for (const s of sources) {
    if (!complete.some((e) => inSource(s, e.key))) log(`warning: ${s.dir}: none of its questions is left to learn from (${s.dataset} has no training question from it)`);
  }
  // The components are fitted once on every training question's embedding: PCA reads no label,
  // so cross-validation below still scores each question with predictors that never saw its outcomes.
  let projection: EmbeddingProjection | undefined;
  if (settings.embedding > 0) {
    if (!embeddings) throw new ConfigError(`router.embedding: ${settings.embedding} components asked for, but no question embeddings were given (the caller offers no embedder)`);
    const vectorOf = (question: string): readonly number[] => {
      const v = embeddings.vectors.get(question);
      if (!v) throw new ConfigError(`router.embedding: no embedding for the training question "${question}"`);
      return v;
    };
    projection = fitProjection(complete.map((e) => [...vectorOf(e.question)]), settings.embedding, { spec: embeddings.spec, embedder: embeddings.embedder });
    for (const e of complete) e.features = [...questionFeatures(e.question), ...project(projection, vectorOf(e.question))];
    log(`features: ${FEATURE_NAMES.length} of the wording and ${settings.embedding} principal components of ${embeddings.embedder}'s ${projection.dimensions}-dimensional question embeddings`);
  } else {
    for (const e of complete) e.features = questionFeatures(e.question);
  }
  log(`${complete.length} questions × ${candidates.length} candidates; target: ${target === 'correctness' ? "the judge's correctness" : 'F1'}`);

  const fit = (train: readonly Example[], l2: number): { scaler: ReturnType<typeof fitScaler>; models: CandidateModel[] } => {
    const scaler = fitScaler(train.map((e) => e.features));
    const X = train.map((e) => scale(scaler, e.features));
    const models = candidates.map((workflow) => {
      const quality = train.map((e) => e.outcomes.get(workflow)!.quality);
      const tokens = train.map((e) => e.outcomes.get(workflow)!.tokens);
      return {
        workflow,
        quality: fitLogistic(X, quality, l2),
        ...fitLogTokens(X, tokens, l2),
        training: { n: train.length, quality: mean(quality), tokens: mean(tokens) },
      };
    });
    return { scaler, models };
  };

  // Cross-validation: each question's predictions come from a fit that did not see it. The folds
  // are drawn `repeats` times (seeds seed, seed+1, ...; seed 0 counts as 1) and each question's
  // routed outcome is averaged over the draws: one draw's luck moves the summed margin by about
  // 0.02, as much as neighbouring λ values differ. Seeds s and s+1 share all draws but one: to
  // compare seeds, step them by `repeats`.
  const repeats = settings.repeats;
  const orders = Array.from({ length: repeats }, (_, r) => shuffled(complete, (settings.seed || 1) + r));
  const order = orders[0]!;
  const folds = Math.min(settings.folds, order.length);
  if (folds < settings.folds) log(`router.folds=${settings.folds} is more than the ${order.length} training questions: ${folds} folds (leave one out)`);
  const l2s = settings.l2 !== undefined ? [settings.l2] : L2_GRID;
  const lambdas = [...new Set([...LAMBDA_GRID, ...(settings.lambda !== undefined ? [settings.lambda] : [])])].sort((a, b) => a - b);
  const datasets = [...new Set(order.map((e) => e.dataset))].sort();
  /** The candidate chosen for a question in one draw of the folds. */
  type Choice = (e: Example, draw: number) => string;
  const realisedOn = (examples: readonly Example[], choose: Choice): { quality: number; tokens: number } => {
    const chosen = examples.flatMap((example) => orders.map((_, draw) => example.outcomes.get(choose(example, draw))!));
    return { quality: mean(chosen.map((c) => c.quality)), tokens: mean(chosen.map((c) => c.tokens)) };
  };
  const realised = (choose: Choice) => realisedOn(order, choose);
  // Each dataset's own best single workflow: the bar the router must meet dataset by dataset.
  const bestOn = new Map(datasets.map((d) => {
    const mine = order.filter((e) => e.dataset === d);
    return [d, candidates.map((workflow) => ({ workflow, ...realisedOn(mine, () => workflow) })).reduce(better)] as const;
  }));
  const perDataset = (choose: Choice): DatasetRow[] =>
    datasets.map((d) => {
      const { quality, tokens } = realisedOn(order.filter((e) => e.dataset === d), choose);
      const best = bestOn.get(d)!;
      return { dataset: d, quality, tokens, best: best.workflow, bestQuality: best.quality, bestTokens: best.tokens, met: quality >= best.quality - 1e-12 && tokens <= best.tokens };
    });
  // The pools compared: every candidate, and the Pareto front of each fit's own training means
  // (computed on the training folds, so the held-out fold does not choose its own pool).
  const pools: RouterPool[] = settings.pool === 'auto' ? ['all', 'front'] : [settings.pool];
  const grid: LambdaRow[] = [];
  for (const l2 of l2s) {
    const rankAt = new Map(pools.map((pool) => [pool, orders.map(() => new Map<Example, (lambda: number) => string>())]));
    orders.forEach((drawn, draw) => {
      for (let f = 0; f < folds; f++) {
        const { scaler, models } = fit(drawn.filter((_, i) => i % folds !== f), l2);
        const among = new Map(pools.map((pool) => [pool, pool === 'front' ? frontOf(models) : models]));
        for (const example of drawn.filter((_, i) => i % folds === f)) {
          const x = scale(scaler, example.features);
          for (const pool of pools) rankAt.get(pool)![draw]!.set(example, (lambda) => rank(among.get(pool)!, x, lambda)[0]!.workflow);
        }
      }
    });
    for (const pool of pools) {
      for (const lambda of lambdas) {
        const choose: Choice = (e, draw) => rankAt.get(pool)![draw]!.get(e)!(lambda);
        grid.push({ lambda, pool, l2, ...realised(choose), datasets: perDataset(choose) });
      }
    }
  }
  const singles = candidates.map((workflow) => ({ workflow, ...realised(() => workflow) }));
  const best = singles.reduce(better);
  const oracleRow = realised((e) => candidates.map((workflow) => ({ workflow, ...e.outcomes.get(workflow)! })).reduce(better).workflow);
  for (const row of grid) {
    log(`${pools.length > 1 ? `${row.pool === 'front' ? 'front' : 'all'}, ` : ''}L2 ${row.l2}, λ ${row.lambda}: cross-validated ${target} ${row.quality.toFixed(4)} at ${Math.round(row.tokens)} tokens/q; within each dataset's best single workflow's tokens on ${row.datasets.filter((d) => d.tokens <= d.bestTokens).length} of ${datasets.length}, margin over them ${signed(row.datasets.reduce((s, d) => s + d.quality - d.bestQuality, 0))} summed, met on ${row.datasets.filter((d) => d.met).length}`);
  }
  for (const [d, b] of bestOn) log(`best single workflow on ${d}: ${b.workflow} (${target} ${b.quality.toFixed(4)} at ${Math.round(b.tokens)} tokens/q)`);
  log(`best single workflow overall: ${best.workflow} (${target} ${best.quality.toFixed(4)} at ${Math.round(best.tokens)} tokens/q); oracle ${oracleRow.quality.toFixed(4)} at ${Math.round(oracleRow.tokens)}`);

  // The row the file takes: by SELECTION_RULE over the study, or (λ given) over that λ's rows.
  const chosen = chooseRow(grid, settings.lambda);
  const { lambda, l2 } = chosen;
  const pool = chosen.pool!;
  const chosenBy = settings.lambda !== undefined ? 'given' : 'cross-validation';
  // Given λ, the L2 and the pool are still the rule's choice among its rows: said, as the chosen row is.
  log(
    `λ = ${lambda} (L2 ${l2}${pools.length > 1 ? `, ${pool === 'front' ? 'the Pareto front of the candidates' : 'every candidate'}` : ''}), ${chosenBy === 'given' ? 'λ given, the L2 and pool chosen among its rows by cross-validation' : 'chosen by cross-validation'}: ${chosen.datasets.map((d) => `${d.dataset} ${d.quality >= d.bestQuality ? '+' : ''}${(d.quality - d.bestQuality).toFixed(4)} vs ${d.best} at ${Math.round(d.tokens)}/${Math.round(d.bestTokens)} tokens`).join('; ')}`,
  );

  const { scaler, models } = fit(complete, l2);
  if (pool === 'front') log(`routes among the Pareto front of the candidates' training means: ${frontOf(models).map((m) => m.workflow).join(', ')}`);
  const used = new Set(complete.map((e) => e.key));
  const idsOf = (source: EvalSource) => source.questionIds.filter((id) => used.has(`${source.dataset}\u0000${id}`));
  return {
    format: ROUTER_FORMAT,
    version: 1,
    featureSpec: { version: FEATURE_SPEC_VERSION, names: featureNames({ ...(projection ? { embedding: projection } : {}) }) },
    ...(projection ? { embedding: projection } : {}),
    lambda,
    ...(pool === 'front' ? { pool } : {}),
    scaler,
    candidates: models,
    training: {
      model: [...new Set(sources.map((s) => s.model))].join(','),
      target,
      data: sources.map((s) => {
        const workflowSettings = s.workflowSettings ? Object.fromEntries(candidates.filter((w) => s.workflowSettings![w] !== undefined).map((w) => [w, s.workflowSettings![w]!])) : undefined;
        return {
          dir: s.dir,
          dataset: s.dataset,
          setting: s.setting,
          model: s.model,
          ...(s.judge ? { judge: s.judge } : {}),
          offset: s.offset,
          ...(s.part ? { part: s.part } : {}),
          questions: idsOf(s).length,
          questionIds: idsOf(s),
          ...(workflowSettings && Object.keys(workflowSettings).length ? { workflowSettings } : {}),
          ...(s.budget && Object.keys(s.budget).length ? { budget: s.budget } : {}),
        };
      }),
      questions: complete.length,
      seed: settings.seed,
      folds,
      repeats,
      l2,
      lambda: { value: lambda, chosenBy, rule: SELECTION_RULE, grid },
      bestSingle: { workflow: best.workflow, quality: best.quality, tokens: best.tokens, crossValidated: chosen },
      oracle: { quality: oracleRow.quality, tokens: oracleRow.tokens },
      created: new Date().toISOString(),
    },
  };
}

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(4)}`;

/** The better of two outcomes: higher quality, then fewer tokens; a tie keeps the first. */
function better<T extends { quality: number; tokens: number }>(a: T, b: T): T {
  return b.quality > a.quality || (b.quality === a.quality && b.tokens < a.tokens) ? b : a;
}

/** A seeded Fisher–Yates shuffle (metrics' mulberry32; seed 0 counts as 1): the folds depend on the seed only. */
function shuffled(items: readonly Example[], seed: number): Example[] {
  const random = mulberry32(seed >>> 0 || 1);
  const out = [...items].sort((a, b) => (a.key < b.key ? -1 : 1));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
