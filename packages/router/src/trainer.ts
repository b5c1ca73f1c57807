import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, type LocalTrainer } from '@multihop/core';
import { routerTrainerSettingsSchema } from './settings';
import type * as Training from './trainRouter';
import type * as File from './routerFile';
import type * as Embedding from './embedding';

// Loaded when training starts, not when the manifest is read.
const training = (): typeof Training => require('./trainRouter');
const file = (): typeof File => require('./routerFile');
const embedding = (): typeof Embedding => require('./embedding');

/**
 * `multihop train router --from <eval dir> ... --out FILE [--lambda L]`: fits the router's quality
 * and cost predictors on finished evals and writes the router file the workflow loads with
 * `--set router.file=FILE`.
 */
export const routerTrainer: LocalTrainer = {
  id: 'router',
  description: 'per-question router over the installed workflows, from finished evals (quality and token predictors, λ by cross-validation)',
  settings: routerTrainerSettingsSchema,
  async trainFromEvals(options) {
    const s = routerTrainerSettingsSchema.parse(options.settings);
    // The settings come with their defaults filled in: an embedder other than the default was asked for.
    if (s.embedding === 0 && s.embedder !== routerTrainerSettingsSchema.parse({}).embedder) {
      throw new ConfigError(`router.embedder=${s.embedder}: an embedder is used only with router.embedding=K (the first K principal components of the question embeddings as features); add router.embedding, or drop router.embedder`);
    }
    const replacing = checkOut(options.out);
    if (replacing) options.log?.(`will replace ${replacing} once trained (kept as it is if the training fails)`);
    let embeddings: Training.QuestionEmbeddings | undefined;
    if (s.embedding > 0) {
      if (!options.embedder) throw new ConfigError('router.embedding: this caller offers no embedder to embed the questions with');
      const embedder = options.embedder(s.embedder);
      const started = Date.now();
      const vectors = await embedding().embedQuestions(embedder, options.outcomes.map((o) => o.question));
      options.log?.(`embedded ${vectors.size} questions with ${embedder.id} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      embeddings = { spec: s.embedder, embedder: embedder.id, vectors };
    }
    const trained = training().trainRouter(options.outcomes, options.sources, s, options.log, embeddings);
    file().saveRouterFile(options.out, trained);
    const t = trained.training;
    return {
      file: options.out,
      metrics: {
        questions: t.questions,
        candidates: trained.candidates.length,
        lambda: trained.lambda,
        cvQuality: t.bestSingle.crossValidated.quality,
        cvTokens: Math.round(t.bestSingle.crossValidated.tokens),
        bestSingleQuality: t.bestSingle.quality,
        bestSingleTokens: Math.round(t.bestSingle.tokens),
        ...(trained.embedding ? { embeddingComponents: trained.embedding.components.length } : {}),
      },
    };
  },
};

/**
 * Before any training: `--out` must be a new file in an existing directory, or a router file,
 * which it replaces (said in the log). Any other file is refused, so a mistyped --out never
 * overwrites a README or another method's policy. Returns what is replaced, if anything.
 */
function checkOut(out: string): string | undefined {
  const dir = dirname(out);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError(`--out ${out}: the directory ${dir} does not exist`);
  if (!existsSync(out)) return undefined;
  if (statSync(out).isDirectory()) throw new ConfigError(`--out ${out}: is a directory; give the router file to write, e.g. ${out}/router.json`);
  let format: unknown;
  let created: unknown;
  try {
    const parsed = JSON.parse(readFileSync(out, 'utf8')) as { format?: unknown; training?: { created?: unknown } };
    format = parsed?.format;
    created = parsed?.training?.created;
  } catch {
    format = undefined;
  }
  if (format !== file().ROUTER_FORMAT) {
    throw new ConfigError(`--out ${out}: the file exists and is not a router file${typeof format === 'string' ? ` (format "${format}")` : ''}; give another --out, or remove it first`);
  }
  return `the router file ${out}${typeof created === 'string' ? ` (trained ${created})` : ''}`;
}
