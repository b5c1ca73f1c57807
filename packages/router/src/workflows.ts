import { checkOptionNames, ConfigError, fileSha1, parseSettings, type Embedder, type Workflow, type WorkflowContext } from '@multihop/core';
import { project } from './embedding';
import { defineGraphWorkflow } from '@multihop/engine-langgraph';
import { questionFeatures } from './features';
import { buildRouterGraph } from './graph';
import { frontOf, predictAll, scale } from './predictor';
import { DEFAULT_ROUTER_FILE, lackingTrainingMeans, loadRouterFile, type RouterFile } from './routerFile';
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
  /** `all` or `front` (the Pareto front of the candidates' training means); empty or absent: the file's. */
  pool?: '' | 'all' | 'front';
}

/**
 * The router as a workflow. Built with a WorkflowContext (the runner, the studio), it runs the
 * candidate it chooses; built without one it draws its chart only. Every candidate must be a
 * workflow the context can build.
 */
export function createRouterWorkflow(options: RouterOptions = {}, context?: WorkflowContext): Workflow {
  checkOptionNames('router', options, Object.keys(routerSettingsSchema.shape));
  const settings = parseSettings('router', routerSettingsSchema, options);
  const path = settings.file || DEFAULT_ROUTER_FILE;
  const file = loadRouterFile(path);
  const inFile = file.candidates.map((c) => c.workflow);
  const asked = settings.candidates.split(',').map((s) => s.trim()).filter(Boolean);
  const repeated = asked.filter((w, i) => asked.indexOf(w) < i);
  if (repeated.length) throw new ConfigError(`router.candidates names ${[...new Set(repeated)].join(', ')} more than once; name each candidate once`);
  const notInFile = asked.filter((w) => !inFile.includes(w));
  if (notInFile.length) throw new ConfigError(`router.candidates: ${notInFile.join(', ')} not among the candidates ${path} was trained on (${inFile.join(', ')}); retrain with them`);
  // Most likely a list cut short (a missing comma): a router among one workflow always runs it, at the cost of its prediction.
  if (asked.length === 1) throw new ConfigError(`router.candidates names one workflow (${asked[0]}): a router among one always runs it; name two or more (comma-separated), or run ${asked[0]} itself`);
  let candidates = asked.length ? inFile.filter((w) => asked.includes(w)) : inFile;
  let notInstalled: string[] = [];
  if (context) {
    // Routed only among the workflows installed here: a team with two methods installed gets a router over those two.
    const installed = context.workflowIds();
    const missing = candidates.filter((w) => !installed.includes(w));
    if (asked.length && missing.length) throw new ConfigError(`router.candidates: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed here`);
    notInstalled = missing;
    candidates = candidates.filter((w) => installed.includes(w));
    if (candidates.length === 0) throw new ConfigError(`router: none of the workflows ${path} routes to is installed (${inFile.join(', ')}); install their methods or train a router on the ones you have`);
    // As router.candidates=<one> is refused: a router among one workflow always runs it.
    if (candidates.length === 1) throw new ConfigError(`router: of the workflows ${path} routes to, only ${candidates[0]} is installed here (not ${missing.join(', ')}): a router among one always runs it; install another candidate's method, or run ${candidates[0]} itself`);
  }
  // A file trained to route among the Pareto front of its candidates' training means routes among
  // the front of those installed here: with two methods installed, the front of those two.
  // Candidates named in router.candidates are all routed among, unless router.pool=front says so.
  // The workflow's `candidates` stay all of them (an eval's oracle and best single workflow are
  // taken over them); the graph and the policy route among the pool.
  const pool = settings.pool || (asked.length ? 'all' : file.pool) || 'all';
  let routed = candidates;
  if (pool === 'front') {
    const among = file.candidates.filter((c) => candidates.includes(c.workflow));
    const lacking = lackingTrainingMeans(file, among);
    if (lacking !== undefined) throw new ConfigError(`router.pool=front: ${path}: field candidates[${lacking}].training: expected the mean quality and tokens on the training questions, which the front is taken from`);
    const front = frontOf(among).map((c) => c.workflow);
    routed = candidates.filter((w) => front.includes(w));
  }
  const lambda = settings.lambda < 0 ? file.lambda : settings.lambda;
  const features = questionFeaturesOf(file, path, context);
  const built = new Map<string, Workflow>();
  const workflow = defineGraphWorkflow({
    id: 'router',
    title: ROUTER_TITLE,
    paper: ROUTER_PAPER,
    graph: buildRouterGraph({
      file,
      lambda,
      candidates: routed,
      features,
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
      data: { route: final.choice, lambda, pool, predictions: final.predictions, delegated: final.delegated, file: path, trainedOn: file.training.model, ...(notInstalled.length ? { notInstalled } : {}) },
    }),
  });
  const models = file.candidates.filter((c) => routed.includes(c.workflow));
  const lambdas = [...new Set([...file.training.lambda.grid.map((row) => row.lambda), file.lambda, lambda])].sort((a, b) => a - b);
  return {
    ...workflow,
    candidates,
    ...(notInstalled.length ? { notInstalled } : {}),
    artifacts: { [path]: fileSha1(path) },
    policy: {
      lambda,
      lambdas,
      // The training record as far as it goes: a hand-made file may lack its data list.
      trainedOn: {
        model: file.training.model ?? '',
        questions: (Array.isArray(file.training.data) ? file.training.data : []).filter((d) => Array.isArray(d?.questionIds)).map((d) => ({ dataset: d.dataset, ids: d.questionIds })),
        settings: [...new Set((Array.isArray(file.training.data) ? file.training.data : []).map((d) => d?.setting).filter((s): s is string => typeof s === 'string'))],
      },
      predict: file.embedding ? async (question: string) => predictAll(models, scale(file.scaler, await features(question))) : (question: string) => predictAll(models, scale(file.scaler, questionFeatures(question))),
    },
  };
}

/**
 * How the router reads a question: its wording's features, and for a file trained with
 * embedding features the question's embedding projected on the file's components, embedded by
 * the context's embedder for the file's spec (it must have the id the file was trained with).
 * Built without a context (to draw the chart) such a router cannot embed, and says so if run.
 */
function questionFeaturesOf(file: RouterFile, path: string, context: WorkflowContext | undefined): (question: string, signal?: AbortSignal) => Promise<number[]> {
  const projection = file.embedding;
  if (!projection) return async (question) => questionFeatures(question);
  let embedder: Embedder | undefined;
  if (context) {
    if (!context.embedder) throw new ConfigError(`router: ${path} was trained with embedding features (${projection.embedder}), and this caller offers no embedder`);
    try {
      embedder = context.embedder(projection.spec);
    } catch (error) {
      throw new ConfigError(`router: ${path} embeds questions with "${projection.spec}" (${projection.embedder}), which cannot be set up here: ${(error as Error).message}`);
    }
    if (embedder.id !== projection.embedder) {
      throw new ConfigError(`router: ${path} was trained with the embedder ${projection.embedder} (spec "${projection.spec}"), but that spec gives ${embedder.id} here; retrain the router with this embedder`);
    }
  }
  // The graph's `predict` and the eval's replay across λ read the same questions: each is embedded once.
  const seen = new Map<string, number[]>();
  return async (question, signal) => {
    if (!embedder) throw new ConfigError(`router: ${path} needs an embedder to read questions; build it through a WorkflowContext (the runner, the studio)`);
    const known = seen.get(question);
    if (known) return known;
    const [vector] = await embedder.embed([question], signal);
    const features = [...questionFeatures(question), ...project(projection, vector!)];
    if (seen.size >= 10_000) seen.delete(seen.keys().next().value!);
    seen.set(question, features);
    return features;
  };
}
