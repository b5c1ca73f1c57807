import type { LocalTrainer } from '@multihop/core';
import { routerTrainerSettingsSchema } from './settings';
import type * as Training from './trainRouter';
import type * as File from './routerFile';

// Loaded when training starts, not when the manifest is read.
const training = (): typeof Training => require('./trainRouter');
const file = (): typeof File => require('./routerFile');

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
    const trained = training().trainRouter(options.outcomes, options.sources, s, options.log);
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
      },
    };
  },
};
