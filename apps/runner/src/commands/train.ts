import { resolve } from 'node:path';
import { ConfigError, type EvalOutcome, type EvalSource, type LocalTrainer, type Question } from '@multihop/core';
import { inPart, parsePart, type QuestionPart } from '@multihop/datasets';
import { z } from 'zod';
import { resolveEmbedder } from '../embedder';
import type { Io } from '../io';
import { methodCatalog } from '../methods';
import { openCorpus, type OpenedCorpus, type Setting } from '../corpus';
import { resolveModel } from '../model';
import { DEFAULT_SETTING } from '../setting';
import { parseSetFlags } from '../workflowSettings';

export interface TrainCommandOptions {
  trainer: string | undefined;
  /** `multihop evolve --workflow hera`: the trainer is the one the workflow's method offers. */
  workflow?: string;
  /** The training questions' dataset(s); not used by a trainer that learns from evals (`from`). */
  dataset: string | undefined;
  /** `--from <eval dir>` (repeatable): the finished evals a trainer such as the router learns from. */
  from?: string[];
  out: string;
  offset?: number;
  limit?: number;
  /** `K/N`: only the questions whose id falls in part K of N. */
  part?: string;
  /** Undefined when not given: the default setting for a trainer of runs; refused with --from. */
  setting?: Setting;
  model?: string;
  db?: string;
  /** `--alpha`, `--epochs`, `--seed` as given (read as numbers), checked by the trainer's settings schema. */
  flags: Record<string, number | undefined>;
  /** `<trainer>.<key>=<value>` for any other setting. */
  set?: string[];
}

/**
 * `multihop train <trainer>`: trains a policy a method offers for local training (MAO-ARAG's
 * planner) on a dataset's questions, from rewards of real runs with the configured model,
 * printing each epoch's figures; the trainer writes (and resumes from) the policy file.
 */
export async function trainCommand(io: Io, options: TrainCommandOptions): Promise<number> {
  const catalog = methodCatalog();
  const trainers = catalog.localTrainers;
  let found = trainers.find((t) => t.trainer.id === options.trainer);
  if (options.workflow) {
    const method = catalog.get(options.workflow).method;
    // evolve runs questions through the method; a trainer that learns from finished evals (the router's) is train's.
    const fromRuns = trainers.filter((t) => !t.trainer.trainFromEvals);
    const own = fromRuns.filter((t) => t.method === method);
    const fromEvals = trainers.find((t) => t.method === method && t.trainer.trainFromEvals);
    if (own.length === 0 && fromEvals) {
      throw new ConfigError(`${method.id} learns from finished evals, not from runs of its own: multihop train ${fromEvals.trainer.id} --from <eval dir> --out FILE`);
    }
    if (own.length !== 1) {
      throw new ConfigError(
        own.length === 0
          ? `${options.workflow}'s method (${method.id}) learns nothing on this machine; methods that do: ${[...new Set(fromRuns.map((t) => t.method.id))].join(', ') || 'none installed'}`
          : `${method.id} offers several trainers (${own.map((t) => t.trainer.id).join(', ')}): use multihop train <trainer>`,
      );
    }
    found = own[0];
  }
  if (!found) {
    const known = trainers.map((t) => `${t.trainer.id} (${t.trainer.description})`).join(', ') || 'none installed';
    throw new ConfigError(`${options.trainer ? `unknown trainer "${options.trainer}"` : 'train needs a trainer'}; trainers: ${known}`);
  }
  const { trainer } = found;
  const given: Record<string, unknown> = Object.fromEntries(Object.entries(options.flags).filter(([, v]) => v !== undefined));
  // Where each setting came from, for the message when its value is refused.
  const from = new Map(Object.keys(given).map((key) => [key, `--${key} ${String(given[key])}`]));
  for (const a of parseSetFlags(options.set ?? [])) {
    if (a.target !== trainer.id) throw new ConfigError(`${a.where}: train ${trainer.id} takes --set ${trainer.id}.<setting>=<value>`);
    // One setting given twice with two values (--lambda 0.05 and --set router.lambda=0.1): which one was meant is not for the command to guess.
    if (from.has(a.key) && JSON.stringify(given[a.key]) !== JSON.stringify(a.value)) throw new ConfigError(`${from.get(a.key)} and ${a.where} set ${trainer.id}.${a.key} twice, to ${JSON.stringify(given[a.key])} and ${JSON.stringify(a.value)}: give it once`);
    given[a.key] = a.value;
    from.set(a.key, a.where);
  }
  let settings: Record<string, unknown> = given;
  if (trainer.settings) {
    const keys = Object.keys(trainer.settings.shape);
    const unknown = Object.keys(given).find((k) => !keys.includes(k));
    if (unknown) throw new ConfigError(`trainer ${trainer.id} has no setting "${unknown}"; its settings: ${keys.join(', ')}`);
    const parsed = trainer.settings.safeParse(given);
    if (!parsed.success) {
      const key = String(parsed.error.issues[0]!.path[0] ?? '');
      if (!from.has(key)) throw new ConfigError(`trainer ${trainer.id}: ${z.prettifyError(parsed.error)}`);
      const said = parsed.error.issues.filter((i) => String(i.path[0]) === key).map((i) => i.message).join('; ');
      throw new ConfigError(`${from.get(key)}: ${trainer.id}.${key} = ${JSON.stringify(given[key])} is not valid: ${said}`);
    }
    settings = parsed.data as Record<string, unknown>;
  } else if (Object.keys(given).length) {
    throw new ConfigError(`trainer ${trainer.id} declares no settings`);
  }
  const part = options.part !== undefined ? parsePart(options.part) : undefined;
  if (trainer.trainFromEvals || options.from?.length) {
    if (!trainer.trainFromEvals) throw new ConfigError(`trainer ${trainer.id} learns from runs of its own, not from evals: give it --dataset, not --from`);
    if (!options.from?.length) throw new ConfigError(`trainer ${trainer.id} learns from finished evals: give --from <eval dir> (repeatable), e.g. the --out of multihop eval`);
    // The evals fixed their questions, setting, corpus and model when they ran; an option that would choose them is refused, not ignored.
    const forRuns = (['dataset', 'offset', 'limit', 'setting', 'model', 'db'] as const).filter((k) => options[k] !== undefined);
    if (forRuns.length) {
      throw new ConfigError(
        `train ${trainer.id} learns from the evals given with --from, which fixed their questions, setting and model when they ran: ${forRuns.map((k) => `--${k}`).join(', ')} ${forRuns.length === 1 ? 'is' : 'are'} for a trainer that runs questions itself (to keep part of each eval's questions: --part K/N)`,
      );
    }
    return trainFromEvals(io, trainer, options.from, resolve(options.out), settings, part);
  }
  if (!trainer.train) throw new ConfigError(`trainer ${trainer.id} offers no way to train`);
  const train = trainer.train.bind(trainer);
  if (options.dataset === undefined) throw new ConfigError(`train ${trainer.id} needs --dataset`);
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) throw new ConfigError(`--limit must be a positive integer, got ${options.limit}`);
  if (options.offset !== undefined && (!Number.isInteger(options.offset) || options.offset < 0)) throw new ConfigError(`--offset must be a non-negative integer, got ${options.offset}`);
  const model = resolveModel(options.model);
  const setting = options.setting ?? DEFAULT_SETTING;
  const names = options.dataset.split(',').map((d) => d.trim()).filter(Boolean);
  if (names.length === 0 || new Set(names).size !== names.length) throw new ConfigError(`--dataset must name one or more distinct datasets, got "${options.dataset}"`);
  const corpora: OpenedCorpus[] = [];
  try {
    // Several datasets train one policy on all their questions, each searching its own corpus.
    const owner = new Map<Question, OpenedCorpus>();
    const questions: Question[] = [];
    const offset = options.offset ?? 0;
    for (const name of names) {
      const corpus = await openCorpus({ dataset: name, setting, db: options.db });
      corpora.push(corpus);
      for (const notice of corpus.notices) io.err(notice);
      const mine = corpus.dataset.questions.slice(offset, offset + (options.limit ?? corpus.dataset.questions.length)).filter((q) => inPart(q.id, part));
      for (const q of mine) owner.set(q, corpus);
      questions.push(...mine);
    }
    if (questions.length === 0) throw new ConfigError(`no training questions in ${names.join(', ')} from --offset ${offset}`);
    const dataset = corpora.map((c) => c.dataset.name).join('+');
    io.err(`train ${trainer.id}: ${questions.length} questions of ${dataset} (${setting}), model: ${model.label}, settings: ${JSON.stringify(settings)}`);
    const out = resolve(options.out);
    // Ctrl-C stops after the current step; what is done is already in the file, and the same command resumes.
    const controller = new AbortController();
    const onSigint = () => {
      if (controller.signal.aborted) process.exit(130);
      io.err(`\n${trainer.id}: stopping after the current step (Ctrl-C again to quit now); re-run the same command to resume`);
      controller.abort(new Error('interrupted'));
    };
    process.on('SIGINT', onSigint);
    const result = await train({
      signal: controller.signal,
      model: model.port,
      modelId: [model.describe.default, ...Object.entries(model.describe.roles).map(([r, m]) => `${r}=${m}`)].join(';'),
      retrieverFor: (question) => {
        const corpus = owner.get(question) ?? corpora.find((c) => c.dataset.questions.some((q) => q.id === question.id));
        if (!corpus) throw new ConfigError(`question ${question.id} is not one of the training questions`);
        return corpus.retrieverFor({ id: question.id, text: question.text });
      },
      questions,
      dataset,
      out,
      settings,
      onEpoch: ({ epoch, epochs, metrics }) =>
        // `evolve` counts rounds (--rounds), a trainer of weights epochs (--epochs).
        io.err(`${options.workflow ? 'round' : 'epoch'} ${epoch}/${epochs}: ${formatMetrics(metrics)}${model.offline ? ' (offline model)' : ''}`),
    });
    io.out(`wrote ${result.file}: ${formatMetrics(result.metrics)}${model.offline ? ' — rewards from the offline model’s runs' : ''}`);
    if (options.workflow) io.out(`use it with: --set ${options.workflow}.state=${result.file} (multihop run --workflow ${options.workflow}, or eval --workflows ${options.workflow},...)`);
    process.off('SIGINT', onSigint);
    return controller.signal.aborted ? 130 : 0;
  } finally {
    for (const corpus of corpora) corpus.close();
  }
}

/**
 * A trainer that learns from finished evals (the router): reads each directory's results,
 * judgements and summary, hands the trainer one outcome per question × workflow, and prints
 * what it wrote.
 */
async function trainFromEvals(io: Io, trainer: LocalTrainer, dirs: readonly string[], out: string, settings: Record<string, unknown>, part: QuestionPart | undefined): Promise<number> {
  const { readEvalOutcomes } = require('../eval/outcomes') as typeof import('../eval/outcomes');
  const outcomes: EvalOutcome[] = [];
  const sources: EvalSource[] = [];
  for (const dir of dirs) {
    const read = readEvalOutcomes(dir, part);
    if (read.outcomes.length === 0) throw new ConfigError(`--from ${dir}: no question of this eval falls in part ${part!.part} of ${part!.of}`);
    outcomes.push(...read.outcomes);
    sources.push(read.source);
    io.err(`train ${trainer.id}: ${read.source.dir}: ${read.source.questions} ${read.source.dataset} questions${part ? ` (part ${part.part} of ${part.of} by id)` : ''} × ${read.source.workflows.length} workflows (${read.source.setting}, model ${read.source.model}${read.source.judge ? `, judge ${read.source.judge}` : ''})`);
  }
  const models = [...new Set(sources.map((s) => s.model))];
  if (models.length > 1) io.err(`train ${trainer.id}: warning: the evals were run with different models (${models.join(', ')}); the router predicts one model's quality and cost`);
  const judges = [...new Set(sources.map((s) => s.judge ?? '(not judged)'))];
  if (judges.length > 1) io.err(`train ${trainer.id}: warning: the evals were judged differently (${judges.join(', ')}); the router learns one judge's idea of a correct answer`);
  for (const line of mixedConditions(sources)) io.err(`train ${trainer.id}: warning: ${line}`);
  const result = await trainer.trainFromEvals!({
    outcomes,
    sources,
    out,
    settings,
    log: (line) => io.err(`train ${trainer.id}: ${line}`),
    embedder: resolveEmbedder,
  });
  const offline = models.includes('offline') ? (models.length === 1 ? ' — from the offline model’s evals' : ' — partly from the offline model’s evals') : '';
  io.out(`wrote ${result.file}: ${formatMetrics(result.metrics)}${offline}`);
  io.out(`run it with: --workflows ${trainer.id},... --set ${trainer.id}.file=${result.file}`);
  return 0;
}

/**
 * What differs between the evals beside the model and the judge, and would be learnt as if it
 * were the questions: the retrieval setting, a workflow's settings, a run budget (which makes
 * runs cheap partial ones). One line each.
 */
export function mixedConditions(sources: readonly EvalSource[]): string[] {
  const lines: string[] = [];
  const settings = [...new Set(sources.map((s) => s.setting))];
  if (settings.length > 1) lines.push(`the evals ran in different settings (${sources.map((s) => `${s.dir}: ${s.setting}`).join(', ')}); each candidate's quality and cost is learnt as one, whichever setting a question came from`);
  const budgeted = sources.filter((s) => s.budget && Object.keys(s.budget).length > 0);
  if (budgeted.length) lines.push(`${budgeted.map((s) => `${s.dir} ran with a budget (${Object.entries(s.budget!).map(([k, v]) => `${k} ${v}`).join(', ')})`).join('; ')}: its runs stopped at it are learnt as the workflows' answers and costs`);
  const workflows = [...new Set(sources.flatMap((s) => s.workflows))];
  for (const w of workflows) {
    const seen = new Map<string, string[]>();
    for (const s of sources) {
      if (!s.workflows.includes(w) || !s.workflowSettings) continue;
      const key = JSON.stringify(sortedKeys(s.workflowSettings[w] ?? {}));
      seen.set(key, [...(seen.get(key) ?? []), s.dir]);
    }
    if (seen.size > 1) lines.push(`${w} ran with different settings in the evals (${[...seen].map(([k, dirs]) => `${k} in ${dirs.join(', ')}`).join('; ')}); it is learnt as one workflow`);
  }
  return lines;
}

function sortedKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]]));
}

/** `name value, ...`: integers as they are, the rest to four decimals. */
function formatMetrics(metrics: Record<string, number>): string {
  return Object.entries(metrics).map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(4)}`).join(', ');
}
