import { resolve } from 'node:path';
import { ConfigError } from '@multihop/core';
import { z } from 'zod';
import type { Io } from '../io';
import { methodCatalog } from '../methods';
import { openCorpus, type Setting } from '../corpus';
import { resolveModel } from '../model';
import { parseSetFlags } from '../workflowSettings';

export interface TrainCommandOptions {
  trainer: string | undefined;
  dataset: string;
  out: string;
  offset?: number;
  limit?: number;
  setting: Setting;
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
  const found = trainers.find((t) => t.trainer.id === options.trainer);
  if (!found) {
    const known = trainers.map((t) => `${t.trainer.id} (${t.trainer.description})`).join(', ') || 'none installed';
    throw new ConfigError(`${options.trainer ? `unknown trainer "${options.trainer}"` : 'train needs a trainer'}; trainers: ${known}`);
  }
  const { trainer } = found;
  const given: Record<string, unknown> = Object.fromEntries(Object.entries(options.flags).filter(([, v]) => v !== undefined));
  for (const a of parseSetFlags(options.set ?? [])) {
    if (a.target !== trainer.id) throw new ConfigError(`${a.where}: train ${trainer.id} takes --set ${trainer.id}.<setting>=<value>`);
    given[a.key] = a.value;
  }
  let settings: Record<string, unknown> = given;
  if (trainer.settings) {
    const keys = Object.keys(trainer.settings.shape);
    const unknown = Object.keys(given).find((k) => !keys.includes(k));
    if (unknown) throw new ConfigError(`trainer ${trainer.id} has no setting "${unknown}"; its settings: ${keys.join(', ')}`);
    const parsed = trainer.settings.safeParse(given);
    if (!parsed.success) throw new ConfigError(`trainer ${trainer.id}: ${z.prettifyError(parsed.error)}`);
    settings = parsed.data as Record<string, unknown>;
  } else if (Object.keys(given).length) {
    throw new ConfigError(`trainer ${trainer.id} declares no settings`);
  }
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) throw new ConfigError(`--limit must be a positive integer, got ${options.limit}`);
  const model = resolveModel(options.model);
  const corpus = await openCorpus({ dataset: options.dataset, setting: options.setting, db: options.db });
  try {
    for (const notice of corpus.notices) io.err(notice);
    const offset = options.offset ?? 0;
    const questions = corpus.dataset.questions.slice(offset, offset + (options.limit ?? corpus.dataset.questions.length));
    if (questions.length === 0) throw new ConfigError(`no training questions: ${corpus.dataset.name} has ${corpus.dataset.questions.length}, --offset ${offset}`);
    io.err(`train ${trainer.id}: ${questions.length} ${corpus.dataset.name} questions (${corpus.describe.setting}), model: ${model.label}, settings: ${JSON.stringify(settings)}`);
    const out = resolve(options.out);
    const result = await trainer.train({
      model: model.port,
      modelId: [model.describe.default, ...Object.entries(model.describe.roles).map(([r, m]) => `${r}=${m}`)].join(';'),
      retrieverFor: (question) => corpus.retrieverFor({ id: question.id, text: question.text }),
      questions,
      dataset: corpus.dataset.name,
      out,
      settings,
      onEpoch: ({ epoch, epochs, metrics }) =>
        io.err(`epoch ${epoch}/${epochs}: ${Object.entries(metrics).map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(4)}`).join(', ')}${model.offline ? ' (offline model)' : ''}`),
    });
    io.out(`wrote ${result.file}: ${Object.entries(result.metrics).map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(4)}`).join(', ')}${model.offline ? ' — rewards from the offline model’s runs' : ''}`);
    return 0;
  } finally {
    corpus.close();
  }
}
