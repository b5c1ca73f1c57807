import { ConfigError, type Workflow, type WorkflowContext } from '@multihop/core';
import { defineGraphWorkflow } from '@multihop/engine-langgraph';
import { questionFeatures } from './features';
import { buildRouterGraph } from './graph';
import { predictAll, scale } from './predictor';
import { DEFAULT_ROUTER_FILE, loadRouterFile } from './routerFile';
import { ROUTER_DEFAULTS, routerSettingsSchema } from './settings';
import { ROUTER_PAPER, ROUTER_TITLE } from './variants';

export { ROUTER_DEFAULTS };

export interface RouterOptions {
  /** Router file (`multihop train router`); default: the one this package ships. */
  file?: string;
  /** λ in quality per 1,000 tokens; −1 or absent: the file's. */
  lambda?: number;
  /** Comma-separated candidate ids; empty: every candidate in the file. */
  candidates?: string;
}

/**
 * The router as a workflow. Built with a WorkflowContext (the runner, the studio), it runs the
 * candidate it chooses; built without one it draws its chart only. Every candidate must be a
 * workflow the context can build.
 */
export function createRouterWorkflow(options: RouterOptions = {}, context?: WorkflowContext): Workflow {
  const settings = routerSettingsSchema.parse(options);
  const path = settings.file || DEFAULT_ROUTER_FILE;
  const file = loadRouterFile(path);
  const inFile = file.candidates.map((c) => c.workflow);
  const asked = settings.candidates.split(',').map((s) => s.trim()).filter(Boolean);
  const notInFile = asked.filter((w) => !inFile.includes(w));
  if (notInFile.length) throw new ConfigError(`router.candidates: ${notInFile.join(', ')} not among the candidates ${path} was trained on (${inFile.join(', ')}); retrain with them`);
  let candidates = asked.length ? inFile.filter((w) => asked.includes(w)) : inFile;
  if (context) {
    // Routed only among the workflows installed here: a team with two methods installed gets a router over those two.
    const installed = context.workflowIds();
    const missing = candidates.filter((w) => !installed.includes(w));
    if (asked.length && missing.length) throw new ConfigError(`router.candidates: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed here`);
    candidates = candidates.filter((w) => installed.includes(w));
    if (candidates.length === 0) throw new ConfigError(`router: none of the workflows ${path} routes to is installed (${inFile.join(', ')}); install their methods or train a router on the ones you have`);
  }
  const lambda = settings.lambda < 0 ? file.lambda : settings.lambda;
  const built = new Map<string, Workflow>();
  const workflow = defineGraphWorkflow({
    id: 'router',
    title: ROUTER_TITLE,
    paper: ROUTER_PAPER,
    graph: buildRouterGraph({
      file,
      lambda,
      candidates,
      ...(context
        ? {
            build: (id: string) => {
              if (!built.has(id)) built.set(id, context.workflow(id));
              return built.get(id)!;
            },
          }
        : {}),
    }),
    input: (query) => ({ question: query.text }),
    output: (final) => ({
      answer: final.finalAnswer,
      ...(final.stopReason ? { stopReason: final.stopReason } : {}),
      data: { route: final.choice, lambda, predictions: final.predictions, delegated: final.delegated, file: path, trainedOn: file.training.model },
    }),
  });
  const models = file.candidates.filter((c) => candidates.includes(c.workflow));
  const lambdas = [...new Set([...file.training.lambda.grid.map((row) => row.lambda), file.lambda, lambda])].sort((a, b) => a - b);
  return {
    ...workflow,
    candidates,
    policy: { lambda, lambdas, predict: (question: string) => predictAll(models, scale(file.scaler, questionFeatures(question))) },
  };
}
