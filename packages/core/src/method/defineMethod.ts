import type { ZodObject, ZodType } from 'zod';
import { ConfigError, MultihopError } from '../errors';
import { didYouMean } from '../suggest';
import type { PromptTemplate } from '../model/port';
import type { Question, RunResult } from '../types';
import type { Embedder } from '../retriever';
import type { Workflow } from '../workflow';
import type { LocalTrainer, Trainable } from './Trainable';

export type EngineName = 'langgraph' | 'xstate' | 'plain';

/** One workflow a method offers: the full method or one of the paper's variants and ablations. */
export interface WorkflowEntry {
  /** Unique across every method: what `multihop run --workflow` takes. */
  id: string;
  title: string;
  engine: EngineName;
  /** The paper's name for this variant (`full`, `coverage-anchor`, `no-rewrite`). */
  variant: string;
  /**
   * The workflow's numeric and enumerated settings (PAR²'s `hopBudget`, OPERA's `maxRewrites`),
   * each with the paper's default. `multihop --set <id>.<key>=<value>`, the config file's
   * `settings` and `multihop sweep` are validated against it before anything runs.
   */
  settings?: ZodObject;
  /**
   * `false` for a workflow that never searches, by design (closed-book: the baselines' `direct`
   * and `cot`). An evaluation then gives its runs no retrieval scores (Recall@5, NDCG@5, All-Pass
   * read "—"), rather than zeros that read as a retrieval that failed. Default `true`.
   */
  searches?: boolean;
  /**
   * The method's own per-question measures, beside EM/F1 (MAO-ARAG's reward R = F1 − α·CP − FP):
   * computed by the evaluation, which has the gold, from a finished run. `multihop eval` averages
   * each and compares workflows on the ones they share.
   */
  score?(result: RunResult, question: Question): Record<string, number>;
  /**
   * The method's measures over a set of runs rather than one (HERA's transition entropy over a
   * window of runs): `multihop eval` computes them over each workflow's runs of the evaluation.
   */
  aggregate?(results: readonly RunResult[]): Record<string, number>;
  /**
   * Builds the workflow; settings not given take the paper's defaults. `context` lets a workflow
   * that runs others (the router) build them as the caller would, with the caller's settings.
   */
  create(options?: Record<string, unknown>, context?: WorkflowContext): Workflow;
}

/** What a caller that builds workflows (the runner, the studio, a test) offers a workflow that runs other workflows. */
export interface WorkflowContext {
  /** Every workflow id the caller can build. */
  workflowIds(): readonly string[];
  /** Builds workflow `id` with the caller's settings for it; an unknown id is an error naming it. */
  workflow(id: string): Workflow;
  /**
   * The caller's embedder for a spec (`hashing`, `hashing:<dimensions>`, `openai:<model>:<dimensions>`):
   * what a router trained with embedding features embeds questions with. Absent: the caller has none.
   */
  embedder?(spec: string): Embedder;
}

/**
 * What happens at one node of a method's state charts, for a viewer that shows the chart (the
 * studio): the agent acting there under its paper's name, a line on what the node does, and the
 * prompt templates it calls. A node with no agent is the method's own machinery (a router, a
 * merge, a penalty); a node with no prompts calls no model.
 */
export interface MethodNode {
  /** The paper's name for the agent acting at this node (PAR²'s "Evidence Sufficiency Controller", OPERA's "Plan Agent"). */
  agent?: string;
  /** One line: what the node does. */
  description: string;
  /** Ids of the manifest's prompts the node calls (every model call made at the node uses one of them). */
  prompts?: readonly string[];
}

/**
 * Everything the platform needs to know about a method, exported by its package as
 * `@multihop/<method>/manifest`. The runner's workflow list, the prompt registry, the offline
 * model's handlers (from `@multihop/<method>/offline`), `multihop rollouts` and the tests that
 * check every role is answered all iterate manifests: adding a method is adding its folder.
 */
export interface MethodManifest {
  /** The method's id, also its package's folder (`par2-rag`, `opera`, `baselines`). */
  id: string;
  /** Short name for listings (`PAR²-RAG`, `OPERA`, `baseline`). */
  family: string;
  /** The paper (title, venue or arXiv id). */
  paper: string;
  workflows: readonly WorkflowEntry[];
  /** Every prompt the method's agents call; each role needs an offline handler in `./offline`. */
  prompts: readonly PromptTemplate[];
  /** For methods whose paper trains its agents: roles in training order and rollouts. */
  trainer?: Trainable;
  /** Policies trained on this machine by `multihop train <id>` (MAO-ARAG's planner). */
  trainers?: readonly LocalTrainer[];
  /**
   * The chart nodes of the method's workflows, by node id: who acts there and which prompts it
   * calls. One table for all the method's workflows (its variants use subsets of the same node
   * names); the method conformance suite checks it against the charts and real runs.
   */
  nodes?: Readonly<Record<string, MethodNode>>;
}

/** Checks a manifest (ids present and unique, prompts unique, nodes naming only its prompts) and returns it frozen. */
export function defineMethod(manifest: MethodManifest): MethodManifest {
  const where = `method manifest "${manifest.id || '(no id)'}"`;
  if (!/^[a-z0-9][a-z0-9-]*$/.test(manifest.id)) throw new MultihopError('MANIFEST', `${where}: id must be lower-case letters, digits and dashes`);
  if (manifest.workflows.length === 0) throw new MultihopError('MANIFEST', `${where}: lists no workflow`);
  const repeated = (ids: string[]) => ids.find((id, i) => ids.indexOf(id) !== i);
  const workflow = repeated(manifest.workflows.map((w) => w.id));
  if (workflow) throw new MultihopError('MANIFEST', `${where}: workflow id "${workflow}" appears twice`);
  const prompt = repeated(manifest.prompts.map((p) => p.id));
  if (prompt) throw new MultihopError('MANIFEST', `${where}: prompt id "${prompt}" appears twice`);
  const promptIds = new Set(manifest.prompts.map((p) => p.id));
  const checkNode = ([name, node]: [string, MethodNode]): [string, MethodNode] => {
    if (!node.description?.trim()) throw new MultihopError('MANIFEST', `${where}: node "${name}" has no description`);
    const unknown = (node.prompts ?? []).filter((id) => !promptIds.has(id));
    if (unknown.length) {
      const ids = unknown.map((id) => `"${id}"`).join(', ');
      throw new MultihopError('MANIFEST', `${where}: node "${name}" calls prompt ${ids}, which is not among the manifest's prompts`);
    }
    return [name, Object.freeze({ ...node, ...(node.prompts ? { prompts: Object.freeze([...node.prompts]) } : {}) })];
  };
  const nodes = manifest.nodes ? Object.freeze(Object.fromEntries(Object.entries(manifest.nodes).map(checkNode))) : undefined;
  return Object.freeze({
    ...manifest,
    workflows: Object.freeze([...manifest.workflows]),
    prompts: Object.freeze([...manifest.prompts]),
    ...(nodes ? { nodes } : {}),
  });
}

/**
 * The same prompt: one object, or copies agreeing on role, version, text and reply format (two
 * installs of one prompts package). Prompts with no text to compare (written by hand against the
 * PromptTemplate interface) are the same only as one object.
 */
function samePrompt(a: PromptTemplate, b: PromptTemplate): boolean {
  if (a === b) return true;
  const text = (p: PromptTemplate) => {
    const { system, template } = p as { system?: unknown; template?: unknown };
    return system === undefined && template === undefined ? undefined : JSON.stringify([system ?? null, template ?? null, p.reply?.instructions ?? 'json']);
  };
  const [ta, tb] = [text(a), text(b)];
  return ta !== undefined && ta === tb && a.role === b.role && a.version === b.version;
}

const describePrompt = (p: PromptTemplate) => `role ${p.role}, version ${p.version}`;

/**
 * The manifests of several methods as one catalogue: every workflow by id (ids must not clash
 * across methods), every prompt, every role.
 */
export class MethodCatalog {
  private readonly byWorkflow = new Map<string, { method: MethodManifest; entry: WorkflowEntry }>();

  constructor(readonly methods: readonly MethodManifest[]) {
    const methodIds = new Set<string>();
    const promptIds = new Map<string, { method: MethodManifest; prompt: PromptTemplate }>();
    const roles = new Map<string, { method: MethodManifest; prompt: PromptTemplate }>();
    for (const method of methods) {
      if (methodIds.has(method.id)) throw new MultihopError('MANIFEST', `method id "${method.id}" is declared by two method packages; each method needs its own id`);
      methodIds.add(method.id);
      // One prompt listed by two methods (the judge's, say) is one prompt; two prompts under one id would share
      // the registry entry, the cache keys, the offline handler and the per-prompt usage, and one would be lost.
      for (const prompt of method.prompts) {
        const earlier = promptIds.get(prompt.id);
        if (!earlier) promptIds.set(prompt.id, { method, prompt });
        else if (!samePrompt(earlier.prompt, prompt)) {
          throw new MultihopError(
            'MANIFEST',
            `prompt id "${prompt.id}" is offered by both ${earlier.method.id} and ${method.id} as two different prompts (${describePrompt(earlier.prompt)}; ${describePrompt(prompt)}); each method's prompts need ids of their own`,
          );
        }
        // A role names who answers a call: the offline model's handler and a per-role model
        // (multihop.config.json's roles) are chosen by it. Two methods' different prompts under one
        // role would share both, and the method loaded last would answer the other's calls.
        const claimed = roles.get(prompt.role);
        if (!claimed) roles.set(prompt.role, { method, prompt });
        else if (claimed.method.id !== method.id && !samePrompt(claimed.prompt, prompt)) {
          throw new MultihopError(
            'MANIFEST',
            `role "${prompt.role}" is used by both ${claimed.method.id} (prompt ${claimed.prompt.id}) and ${method.id} (prompt ${prompt.id}); the offline model's handlers and per-role models are chosen by role, so each method needs roles of its own: name it "${method.id}-${prompt.role}"`,
          );
        }
      }
      for (const entry of method.workflows) {
        const clash = this.byWorkflow.get(entry.id);
        if (clash) throw new MultihopError('MANIFEST', `workflow id "${entry.id}" is offered by both ${clash.method.id} and ${method.id}`);
        // Every setting needs a default: --set and the config file change settings, they never have to supply them.
        const defaults = entry.settings?.safeParse({});
        if (defaults && !defaults.success) {
          const issue = defaults.error.issues[0]!;
          throw new MultihopError(
            'MANIFEST',
            issue.path.length
              ? `method ${method.id}, workflow ${entry.id}: setting ${issue.path.join('.')} has no default (${issue.message}); every setting in a workflow's settings schema needs one (.default(...))`
              : `method ${method.id}, workflow ${entry.id}: its settings schema refuses its own defaults (${issue.message}); the defaults must pass every check the schema makes`,
          );
        }
        this.byWorkflow.set(entry.id, { method, entry });
      }
    }
  }

  /** Every workflow entry with its method, in manifest order. */
  get workflows(): Array<{ method: MethodManifest; entry: WorkflowEntry }> {
    return [...this.byWorkflow.values()];
  }

  find(workflowId: string): { method: MethodManifest; entry: WorkflowEntry } | undefined {
    return this.byWorkflow.get(workflowId);
  }

  /** Like find, but an unknown id is a ConfigError naming the nearest ids and every known one. */
  get(workflowId: string): { method: MethodManifest; entry: WorkflowEntry } {
    const hit = this.byWorkflow.get(workflowId);
    if (hit) return hit;
    const known = [...this.byWorkflow.keys()];
    throw new ConfigError(`unknown workflow "${workflowId}"${didYouMean(workflowId, known)}; known: ${known.join(', ')}`);
  }

  /** Every prompt of every method, each once. */
  get prompts(): PromptTemplate[] {
    const seen = new Map<string, PromptTemplate>();
    for (const method of this.methods) for (const prompt of method.prompts) if (!seen.has(prompt.id)) seen.set(prompt.id, prompt);
    return [...seen.values()];
  }

  /** Every local trainer of every method, by id (ids must not clash). */
  get localTrainers(): Array<{ method: MethodManifest; trainer: LocalTrainer }> {
    const all = this.methods.flatMap((method) => (method.trainers ?? []).map((trainer) => ({ method, trainer })));
    const ids = all.map((t) => t.trainer.id);
    const clash = ids.find((id, i) => ids.indexOf(id) !== i);
    if (clash) throw new MultihopError('MANIFEST', `trainer id "${clash}" is offered twice`);
    return all;
  }

  /** The methods that can produce training rollouts. */
  get trainable(): MethodManifest[] {
    return this.methods.filter((m) => m.trainer !== undefined);
  }
}

/**
 * A method's settings: its paper's defaults, overridden by the options a caller gave. An option
 * passed as `undefined` (a CLI flag not set) keeps the default rather than erasing it. With
 * `check`, the settings are held to the workflow's settings schema (the one `--set` is checked
 * by), so a library caller's `opera({ maxRewrites: -1 })` is refused when the workflow is built,
 * naming the workflow and the setting, as the CLI refuses `--set opera.maxRewrites=-1`.
 */
export function withDefaults<T extends object>(defaults: T, overrides: Partial<T> = {}, check?: { workflow: string; schema: ZodType; options?: readonly string[] }): T {
  const given = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as Partial<T>;
  if (check && isObjectSchema(check.schema)) checkOptionNames(check.workflow, given, Object.keys(check.schema.shape), check.options);
  const settings = { ...defaults, ...given };
  if (check) parseSettings(check.workflow, check.schema, settings);
  return settings;
}

const isObjectSchema = (schema: ZodType): schema is ZodObject => typeof (schema as Partial<ZodObject>).shape === 'object';

/**
 * Refuses an option a workflow's factory does not take: a misspelt setting from JavaScript or a
 * JSON file (`opera({ maxRewrite: 1 })`), or another variant's (`par2CoverageAnchor({ hopBudget: 3 })`:
 * the Coverage Anchor has no chain), which would otherwise run on the paper's default without a
 * word. Names the option, the nearest one it takes and all it takes, as the CLI's `--set` does.
 * `options` are the factory's other options (a reranker, a state directory), taken but not settings.
 */
export function checkOptionNames(workflow: string, given: object, settings: readonly string[], options: readonly string[] = []): void {
  const known = [...settings, ...options];
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined || known.includes(key)) continue;
    const takes = [settings.length ? `settings ${settings.join(', ')}` : 'no settings', options.length ? `options ${options.join(', ')}` : ''].filter(Boolean).join('; ');
    throw new ConfigError(`${workflow}: no option "${key}"${didYouMean(key, known)}; it takes ${takes}`);
  }
}

/**
 * A workflow's settings parsed by its settings schema; a value it refuses is a ConfigError naming
 * the workflow, the setting and the value (`opera: setting topK = 0 is not valid: ...`).
 */
export function parseSettings<T>(workflow: string, schema: ZodType<T>, settings: unknown): T {
  const parsed = schema.safeParse(settings);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const key = issue.path.map(String).join('.');
  const value = issue.path.reduce<unknown>((v, k) => (v as Record<PropertyKey, unknown> | undefined)?.[k as PropertyKey], settings);
  throw new ConfigError(`${workflow}: setting ${key} = ${shownValue(value)} is not valid: ${issue.message}`);
}

/** A setting's value as an error shows it: JSON, but a number JSON cannot hold (1e400 read as Infinity, NaN) as itself, not `null`. */
export function shownValue(value: unknown): string {
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : (JSON.stringify(value) ?? String(value));
}
