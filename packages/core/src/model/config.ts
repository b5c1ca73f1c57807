import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors';
import { readJsonFile } from '../files';
import { createModel } from './createModel';
import type { ModelPort, Provider } from './port';
import { editDistance, nearest } from '../suggest';

/** Which model serves a role, once resolved from flags, environment and config file. */
export type ModelSpec =
  | { provider: 'offline' }
  | {
      provider: 'openai';
      model: string;
      baseURL?: string;
      apiKeyEnv?: string;
      timeoutMs?: number;
      callDeadlineMs?: number;
      maxRetries?: number;
      temperature?: number;
      maxTokens?: number;
      jsonMode?: boolean;
      guidedDecoding?: GuidedDecoding;
    };

/** Constrained decoding of replies that declare a pattern: vLLM ≥ 0.10.2 (`structured_outputs`), vLLM before 0.12 (`guided_regex`), SGLang (`regex`). */
export type GuidedDecoding = 'vllm' | 'vllm-legacy' | 'sglang';

const specObject = z
  .object({
    provider: z.enum(['offline', 'openai']),
    model: z.string().min(1).optional(),
    baseURL: z.string().refine(isHttpUrl).optional(),
    apiKeyEnv: z.string().min(1).optional(),
    /** One attempt's timeout. */
    timeoutMs: z.number().int().positive().optional(),
    /** A call's whole time, every attempt and wait together (MULTIHOP_CALL_DEADLINE_MS when unset). */
    callDeadlineMs: z.number().int().positive().optional(),
    maxRetries: z.number().int().min(0).max(10).optional(),
    temperature: z.number().min(0).max(2).optional(),
    /** The most tokens a reply may have (max_tokens); a reply cut off there is refused, not parsed. */
    maxTokens: z.number().int().positive().optional(),
    jsonMode: z.boolean().optional(),
    /** Constrained decoding of replies that declare a pattern: `vllm` (structured_outputs, vLLM ≥ 0.10.2), `vllm-legacy` (guided_regex, before 0.12) or `sglang` (regex). */
    guidedDecoding: z.enum(['vllm', 'vllm-legacy', 'sglang']).optional(),
  })
  .strict();

const configSchema = z
  .object({
    model: z.union([z.string(), specObject]).optional(),
    roles: z.record(z.string(), z.union([z.string(), specObject])).optional(),
    concurrency: z.number().int().positive().optional(),
    // Empty would put the cache's shard folders in the working directory.
    cache: z.string().min(1, 'give a directory (an empty path would fill the working directory)').optional(),
    /**
     * Workflow settings by workflow or method id (`{"par2-rag": {"hopBudget": 7}}`); the runner
     * checks each against the workflow's own settings schema.
     */
    settings: z.record(z.string(), z.record(z.string(), z.union([z.number(), z.string(), z.boolean()]))).optional(),
  })
  .strict();

/**
 * The config file in use: `configPath` if given, else MULTIHOP_CONFIG, else
 * ./multihop.config.json when it exists.
 */
export function findConfigFile(env: Record<string, string | undefined> = process.env, configPath?: string): string | undefined {
  return configPath ?? env['MULTIHOP_CONFIG'] ?? (existsSync('multihop.config.json') ? resolve('multihop.config.json') : undefined);
}

/** The config file (`multihop.config.json`): a default model, per-role models, limits, workflow settings. */
export type ModelConfigFile = z.infer<typeof configSchema>;

/** Parses `offline` or `openai:<model>`; `where` names the variable or field in errors. */
export function parseModelSpec(text: string, where: string): ModelSpec {
  const value = text.trim();
  if (value === 'offline') return { provider: 'offline' };
  const colon = value.indexOf(':');
  const provider = colon < 0 ? value : value.slice(0, colon);
  const model = colon < 0 ? '' : value.slice(colon + 1).trim();
  if (provider === 'openai') {
    if (!model) throw new ConfigError(`${where}: "${value}" names no model; write openai:<model>, e.g. openai:gpt-4o-mini`);
    return { provider: 'openai', model };
  }
  // A bare model name (MULTIHOP_MODEL=gpt-4o-mini) is the likeliest slip: say how to write it.
  if (colon < 0 && value && !/\s/.test(value) && !closest(value, ['offline', 'openai'])) {
    throw new ConfigError(`${where}: "${value}" names no provider; write openai:${value} (any OpenAI-compatible endpoint) or offline`);
  }
  const near = closest(provider, ['offline', 'openai']);
  throw new ConfigError(`${where}: unknown model provider "${provider}" in "${value}"${near ? ` (did you mean "${near}"?)` : ''}; use "offline" or "openai:<model>"`);
}

function specFrom(value: string | z.infer<typeof specObject>, where: string): ModelSpec {
  if (typeof value === 'string') return parseModelSpec(value, where);
  if (value.provider === 'offline') return { provider: 'offline' };
  if (!value.model) throw new ConfigError(`${where}.model: missing; provider "openai" needs the model name the endpoint serves`);
  return { ...value, provider: 'openai', model: value.model };
}

/** Reads and validates a config file; errors name the file and the field. */
export function loadModelConfig(path: string): ModelConfigFile {
  let raw: unknown;
  try {
    raw = readJsonFile(path);
  } catch (error) {
    throw new ConfigError(`${path}: ${error instanceof SyntaxError ? 'not valid JSON' : 'cannot be read'} (${(error as Error).message})`, { cause: error });
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
    throw new ConfigError(`${path}: ${describeConfigIssue(issues[0]!, raw)}${more}`);
  }
  return parsed.data;
}

/** What each config field holds, for errors: `expected <this>, got <value>`. */
const SPEC_EXPECTS: Record<string, string> = {
  provider: '"offline" or "openai"',
  model: 'the model name the endpoint serves (a non-empty string)',
  baseURL: 'an http(s) URL, e.g. "http://127.0.0.1:8000/v1"',
  apiKeyEnv: 'the name of an environment variable (a non-empty string)',
  timeoutMs: 'a positive integer (milliseconds)',
  callDeadlineMs: 'a positive integer (milliseconds)',
  maxRetries: 'an integer from 0 to 10',
  temperature: 'a number from 0 to 2',
  maxTokens: 'a positive integer (tokens)',
  jsonMode: 'true or false',
  guidedDecoding: '"vllm", "vllm-legacy" or "sglang"',
};
const MODEL_EXPECTS = '"offline", "openai:<model>" or an object like {"provider": "openai", "model": "gpt-4o-mini"}';
const TOP_EXPECTS: Record<string, string> = {
  model: MODEL_EXPECTS,
  roles: 'an object of role names to models, e.g. {"par2-esc": "openai:o4-mini"}',
  concurrency: 'a positive integer',
  cache: 'a directory path (a non-empty string)',
  settings: 'an object of workflow ids to settings, e.g. {"par2-rag": {"hopBudget": 7}}',
};

type Issue = z.core.$ZodIssue;
type Key = PropertyKey;

/** What the field at `path` of the config file holds, in words. */
function expectedAt(path: readonly Key[]): string | undefined {
  const [top, second, third, fourth] = path;
  if (path.length === 0) return 'a JSON object with the fields model, roles, concurrency, cache, settings';
  if (path.length === 1) return TOP_EXPECTS[String(top)];
  if (top === 'settings') return path.length === 2 ? 'an object of setting names to values' : path.length === 3 ? 'a number, a string or true/false' : undefined;
  // A model spec sits at `model` or `roles.<role>`; its fields one level below.
  const specField = top === 'model' ? (path.length === 2 ? second : undefined) : top === 'roles' ? (path.length === 2 ? null : path.length === 3 ? third : undefined) : undefined;
  if (specField === null) return MODEL_EXPECTS;
  if (specField !== undefined && fourth === undefined) return SPEC_EXPECTS[String(specField)];
  return undefined;
}

function valueAt(raw: unknown, path: readonly Key[]): { found: boolean; value: unknown } {
  let value = raw;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !(key in (value as object))) return { found: false, value: undefined };
    value = (value as Record<Key, unknown>)[key];
  }
  return { found: true, value };
}

/** A value as an error shows it: `string "abc"`, `number 1.5`, `an array`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return `${typeof value} ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`;
}

/**
 * The issue a union's failure is really about: the branch whose shape the value has (an object
 * against `string | {...}` fails in the object branch; that branch's issue is the one to report,
 * with its path under the union's). Undefined when no branch fits the value's type at all.
 */
function unionLeaf(issue: Issue, base: readonly Key[]): { issue: Issue; path: Key[] } | undefined {
  if (issue.code !== 'invalid_union' || !('errors' in issue) || !issue.errors.length) return { issue, path: [...base] };
  const fitting = issue.errors.filter((branch) => !(branch.length > 0 && branch.every((i) => i.code === 'invalid_type' && i.path.length === 0)));
  if (!fitting.length) return undefined;
  const branch = fitting.reduce((best, b) => (b.length < best.length ? b : best));
  const first = branch[0]!;
  return unionLeaf(first, [...base, ...first.path]);
}

/** One config issue as `field <path>: expected <what>, got <value>` (or an unknown field with a suggestion). */
function describeConfigIssue(issue: Issue, raw: unknown): string {
  const leaf = unionLeaf(issue, issue.path) ?? { issue, path: [...issue.path] };
  const path = leaf.path;
  const field = (p: readonly Key[]) => p.map(String).join('.') || '(top level)';
  if (leaf.issue.code === 'unrecognized_keys') {
    const key = leaf.issue.keys[0]!;
    const known = path.length === 0 ? Object.keys(TOP_EXPECTS) : Object.keys(SPEC_EXPECTS);
    const near = closest(key, known);
    return `field ${field([...path, key])}: unknown field${near ? `; did you mean "${near}"?` : ''} (known fields here: ${known.join(', ')})`;
  }
  const { found, value } = valueAt(raw, path);
  const expected = expectedAt(path);
  if (!expected) return `field ${field(path)}: ${leaf.issue.message}`;
  if (!found) return `field ${field(path)}: missing; expected ${expected}`;
  return `field ${field(path)}: expected ${expected}, got ${describeValue(value)}`;
}

/**
 * The candidate `name` was most likely meant to be: the nearest by edit distance when it is near
 * enough (`nearest`), else one that ends in `-<name>` (`esc` for `par2-esc`); undefined when none is.
 */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const suffixed = candidates
    .filter((c) => c.toLowerCase().endsWith(`-${lower}`))
    .map((candidate) => ({ candidate, distance: editDistance(lower, candidate.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance);
  return nearest(name, candidates)[0] ?? suffixed[0]?.candidate;
}

/** Whether `text` is an http(s) URL (what a provider's baseURL must be). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** An http(s) base URL, or a ConfigError naming where it came from and how to write it. */
function checkBaseURL(value: string, where: string): string {
  if (isHttpUrl(value)) return value;
  const hint = /^[\w.-]+(:\d+)?(\/|$)/.test(value) ? `; write it with its scheme, e.g. http://${value}` : '; e.g. http://127.0.0.1:8000/v1';
  throw new ConfigError(`${where}: "${value}" is not an http(s) URL${hint}`);
}

/** An integer setting from the environment, checked: `what` says what it is in the error. */
function integerFromEnv(env: Record<string, string | undefined>, name: string, what: string, min = 1, max?: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || (max !== undefined && n > max)) {
    const range = max !== undefined ? `an integer from ${min} to ${max}` : min === 1 ? 'a positive integer' : `an integer of at least ${min}`;
    throw new ConfigError(`${name} must be ${range} (${what}), got "${raw}"`);
  }
  return n;
}

export interface ModelFromEnvOptions {
  /** Defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** An explicit default model (a CLI flag); wins over MULTIHOP_MODEL and the config file's `model` (the file's `roles` keep theirs). */
  model?: string;
  /** The flag `model` came from, as messages name it (default `--model`; the runner's judge: `--judge`). */
  modelFlag?: string;
  /** Config file path; defaults to MULTIHOP_CONFIG, else ./multihop.config.json when it exists. */
  configPath?: string;
  /** Factory of the offline provider (from @multihop/offline-model), needed when `offline` is selected. */
  offline?: () => Provider;
  /**
   * Factory of OpenAI-compatible providers (`createOpenAIProvider` from
   * @multihop/provider-openai), needed when a role selects `openai:<model>`. Called only then,
   * so a run on the offline model never loads the OpenAI client.
   */
  openai?: (settings: OpenAIProviderSettings) => Provider;
  /** Overrides the config file's cache directory. */
  cacheDir?: string;
  /** Requests in flight at once; with the config file's `concurrency` too, the smaller holds. */
  concurrency?: number;
  /** Used when neither `concurrency` nor the config file sets one (default 4). */
  defaultConcurrency?: number;
  /**
   * The roles the installed workflows call (each prompt's `role`, and the judge's): when given,
   * a config file's `roles` entry naming another role is an error with the nearest known role,
   * instead of a setting that silently applies to nothing. Called only when the file has roles.
   */
  knownRoles?: readonly string[] | (() => readonly string[]);
  /**
   * Roles the caller assigns (`offline` | `openai:<model>`), each naming where it came from for
   * errors (a command line's `--judge`): each wins over the config file's entry for its role.
   */
  roleModels?: Record<string, { model: string; source: string }>;
}

/** What the config resolves for an OpenAI-compatible role; the provider package takes these. */
export interface OpenAIProviderSettings {
  model: string;
  apiKey: string;
  baseURL?: string;
  timeoutMs?: number;
  /** One call's whole time, all attempts and waits (the spec's callDeadlineMs, else MULTIHOP_CALL_DEADLINE_MS). */
  callDeadlineMs?: number;
  maxRetries?: number;
  temperature?: number;
  maxTokens?: number;
  jsonMode?: boolean;
  guidedDecoding?: GuidedDecoding;
}

export interface ResolvedModel {
  port: ModelPort;
  /** The default model id and each role override, for labelling printed figures. */
  describe: { default: string; roles: Record<string, string> };
  /**
   * What changes each provider's replies besides the prompt (Provider.fingerprint, else its id),
   * for the default model and each role override: two runs with the same model ids but other
   * fingerprints asked another endpoint, or sampled otherwise.
   */
  fingerprints: { default: string; roles: Record<string, string> };
  /** True when every role is served by the offline model. */
  offline: boolean;
  /** The response cache the port writes to, and where it was set (the config file's field, or the caller's cacheDir), for a check before any call. */
  cache?: { dir: string; source: string };
}

/**
 * Builds the model port from MULTIHOP_MODEL (`offline` | `openai:<model>`), OPENAI_BASE_URL,
 * OPENAI_API_KEY and the config file's per-role models. Nothing configured means offline.
 */
export function createModelFromEnv(options: ModelFromEnvOptions = {}): ResolvedModel {
  const env = options.env ?? process.env;
  const configPath = findConfigFile(env, options.configPath);
  const config = configPath ? loadModelConfig(configPath) : {};
  const where = configPath ?? 'config';
  const roleNames = Object.keys(config.roles ?? {});
  if (roleNames.length && options.knownRoles) {
    const known = [...new Set(typeof options.knownRoles === 'function' ? options.knownRoles() : options.knownRoles)].sort();
    for (const role of roleNames) {
      if (known.includes(role)) continue;
      const near = closest(role, known);
      throw new ConfigError(
        `${where}: field roles.${role}: no workflow calls a role "${role}"${near ? `; did you mean "${near}"?` : ''} (known roles: ${known.join(', ')})`,
      );
    }
  }
  const callDeadlineMs = integerFromEnv(env, 'MULTIHOP_CALL_DEADLINE_MS', "milliseconds: one model call's whole time, all attempts and waits");
  const timeoutMs = integerFromEnv(env, 'MULTIHOP_TIMEOUT_MS', "milliseconds: one attempt's timeout");
  const maxRetries = integerFromEnv(env, 'MULTIHOP_MAX_RETRIES', 'retries after a failed attempt', 0, 10);

  const chosen: ModelSpec | undefined = options.model
    ? parseModelSpec(options.model, options.modelFlag ?? '--model')
    : env['MULTIHOP_MODEL']
      ? parseModelSpec(env['MULTIHOP_MODEL'], 'MULTIHOP_MODEL')
      : undefined;
  const configured = config.model ? specFrom(config.model, `${where}: model`) : undefined;
  // A model named by a flag, MULTIHOP_MODEL or a role's string that is the config file's own model
  // keeps the file's settings for it (endpoint, timeouts, temperature, ...); a model the file does
  // not describe gets none of them.
  const described = (spec: ModelSpec): ModelSpec =>
    spec.provider === 'openai' && configured?.provider === 'openai' && configured.model === spec.model ? configured : spec;
  const defaultSpec: ModelSpec = chosen ? described(chosen) : (configured ?? { provider: 'offline' });

  const providers = new Map<string, Provider>();
  const build = (spec: ModelSpec, source: string): Provider => {
    const key = JSON.stringify(spec);
    const existing = providers.get(key);
    if (existing) return existing;
    let provider: Provider;
    if (spec.provider === 'offline') {
      if (!options.offline) {
        throw new ConfigError(`${source} selects the offline model, but no offline provider was given (pass offline: createOfflineProvider from @multihop/offline-model)`);
      }
      provider = options.offline();
    } else {
      const keyVar = spec.apiKeyEnv ?? 'OPENAI_API_KEY';
      const apiKey = env[keyVar];
      if (!apiKey) {
        throw new ConfigError(`${keyVar} is not set; ${source} selects openai:${spec.model} (for a local server any non-empty value works)`);
      }
      // A key goes in an HTTP header, which holds printable ASCII only: one pasted with an ellipsis ("sk-…") or a space would fail every call with a ByteString error.
      const bad = [...apiKey.trim()].findIndex((c) => c < ' ' || c > '~');
      if (bad >= 0) {
        throw new ConfigError(`${keyVar} holds a character an HTTP header cannot carry (${JSON.stringify(apiKey.trim()[bad])}, U+${apiKey.trim().codePointAt(bad)!.toString(16).toUpperCase().padStart(4, '0')}, at character ${bad + 1}): was the key pasted cut short ("sk-…")? ${source} selects openai:${spec.model}`);
      }
      if (!options.openai) {
        throw new ConfigError(`${source} selects openai:${spec.model}, but no OpenAI provider factory was given (pass openai: createOpenAIProvider from @multihop/provider-openai)`);
      }
      const envBaseURL = env['OPENAI_BASE_URL'] || undefined;
      provider = options.openai({
        model: spec.model,
        apiKey,
        baseURL: spec.baseURL ?? (envBaseURL === undefined ? undefined : checkBaseURL(envBaseURL, 'OPENAI_BASE_URL')),
        callDeadlineMs: spec.callDeadlineMs ?? callDeadlineMs,
        maxRetries: spec.maxRetries ?? maxRetries,
        timeoutMs: spec.timeoutMs ?? timeoutMs,
        temperature: spec.temperature,
        ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
        jsonMode: spec.jsonMode,
        guidedDecoding: spec.guidedDecoding,
      });
    }
    providers.set(key, provider);
    return provider;
  };

  const defaultSource = options.model ? (options.modelFlag ?? '--model') : env['MULTIHOP_MODEL'] ? 'MULTIHOP_MODEL' : `${where}: model`;
  const provider = build(defaultSpec, defaultSource);
  const roles: Record<string, Provider> = {};
  for (const [role, value] of Object.entries(config.roles ?? {})) {
    // A role the caller assigns is not the file's to serve: its model is not built (nor its key asked for).
    if (options.roleModels?.[role]) continue;
    const spec = specFrom(value, `${where}: roles.${role}`);
    roles[role] = build(typeof value === 'string' ? described(spec) : spec, `${where}: roles.${role}`);
  }
  for (const [role, { model, source }] of Object.entries(options.roleModels ?? {})) {
    roles[role] = build(described(parseModelSpec(model, source)), source);
  }
  const cacheDir = options.cacheDir ?? config.cache;
  const port = createModel({
    provider,
    roles,
    // A caller's limit never raises the config file's (set for a server with few slots).
    concurrency:
      options.concurrency !== undefined && config.concurrency !== undefined
        ? Math.min(options.concurrency, config.concurrency)
        : (options.concurrency ?? config.concurrency ?? options.defaultConcurrency),
    cache: cacheDir,
  });
  const roleIds = Object.fromEntries(Object.entries(roles).map(([r, p]) => [r, p.id]));
  const fingerprint = (p: Provider) => p.fingerprint ?? p.id;
  return {
    port,
    describe: { default: provider.id, roles: roleIds },
    fingerprints: { default: fingerprint(provider), roles: Object.fromEntries(Object.entries(roles).map(([r, p]) => [r, fingerprint(p)])) },
    offline: [provider, ...Object.values(roles)].every((p) => p.id === 'offline'),
    ...(cacheDir !== undefined ? { cache: { dir: cacheDir, source: options.cacheDir !== undefined ? 'cacheDir' : `${where}: field cache` } } : {}),
  };
}
