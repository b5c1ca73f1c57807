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
