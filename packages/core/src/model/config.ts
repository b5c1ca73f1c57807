import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors';
import { createModel } from './createModel';
import type { ModelPort, Provider } from './port';

/** Which model serves a role, once resolved from flags, environment and config file. */
export type ModelSpec =
  | { provider: 'offline' }
  | {
      provider: 'openai';
      model: string;
      baseURL?: string;
      apiKeyEnv?: string;
      timeoutMs?: number;
      maxRetries?: number;
      temperature?: number;
      jsonMode?: boolean;
      guidedDecoding?: 'vllm' | 'sglang';
    };

const specObject = z
  .object({
    provider: z.enum(['offline', 'openai']),
    model: z.string().min(1).optional(),
    baseURL: z.string().url().optional(),
    apiKeyEnv: z.string().min(1).optional(),
    timeoutMs: z.number().int().positive().optional(),
    maxRetries: z.number().int().min(0).max(10).optional(),
    temperature: z.number().min(0).max(2).optional(),
    jsonMode: z.boolean().optional(),
    /** Constrained decoding of replies that declare a pattern: `vllm` (guided_regex) or `sglang` (regex). */
    guidedDecoding: z.enum(['vllm', 'sglang']).optional(),
  })
  .strict();

const configSchema = z
  .object({
    model: z.union([z.string(), specObject]).optional(),
    roles: z.record(z.string(), z.union([z.string(), specObject])).optional(),
    concurrency: z.number().int().positive().optional(),
    cache: z.string().optional(),
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
  throw new ConfigError(`${where}: unknown model provider "${provider}" in "${value}"; use "offline" or "openai:<model>"`);
}

function specFrom(value: string | z.infer<typeof specObject>, where: string): ModelSpec {
  if (typeof value === 'string') return parseModelSpec(value, where);
  if (value.provider === 'offline') return { provider: 'offline' };
  if (!value.model) throw new ConfigError(`${where}.model is required for provider "openai"`);
  return { ...value, provider: 'openai', model: value.model };
}

/** Reads and validates a config file; errors name the file and the field. */
export function loadModelConfig(path: string): ModelConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${path}: cannot read model config (${(error as Error).message})`, { cause: error });
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || '(top level)';
    throw new ConfigError(`${path}: field ${field}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

export interface ModelFromEnvOptions {
  /** Defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** An explicit model (a CLI flag); wins over MULTIHOP_MODEL and the config file. */
  model?: string;
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
  /** Requests in flight at once; wins over the config file's `concurrency`. */
  concurrency?: number;
  /** Used when neither `concurrency` nor the config file sets one (default 4). */
  defaultConcurrency?: number;
}

/** What the config resolves for an OpenAI-compatible role; the provider package takes these. */
export interface OpenAIProviderSettings {
  model: string;
  apiKey: string;
  baseURL?: string;
  timeoutMs?: number;
  maxRetries?: number;
  temperature?: number;
  jsonMode?: boolean;
  guidedDecoding?: 'vllm' | 'sglang';
}

export interface ResolvedModel {
  port: ModelPort;
  /** The default model id and each role override, for labelling printed figures. */
  describe: { default: string; roles: Record<string, string> };
  /** True when every role is served by the offline model. */
  offline: boolean;
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

  const defaultSpec: ModelSpec = options.model
    ? parseModelSpec(options.model, '--model')
    : env['MULTIHOP_MODEL']
      ? parseModelSpec(env['MULTIHOP_MODEL'], 'MULTIHOP_MODEL')
      : config.model
        ? specFrom(config.model, `${where}: model`)
        : { provider: 'offline' };

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
      if (!options.openai) {
        throw new ConfigError(`${source} selects openai:${spec.model}, but no OpenAI provider factory was given (pass openai: createOpenAIProvider from @multihop/provider-openai)`);
      }
      provider = options.openai({
        model: spec.model,
        apiKey,
        baseURL: spec.baseURL ?? env['OPENAI_BASE_URL'],
        timeoutMs: spec.timeoutMs,
        maxRetries: spec.maxRetries,
        temperature: spec.temperature,
        jsonMode: spec.jsonMode,
        guidedDecoding: spec.guidedDecoding,
      });
    }
    providers.set(key, provider);
    return provider;
  };

  const defaultSource = options.model ? '--model' : env['MULTIHOP_MODEL'] ? 'MULTIHOP_MODEL' : `${where}: model`;
  const provider = build(defaultSpec, defaultSource);
  const roles: Record<string, Provider> = {};
  for (const [role, value] of Object.entries(config.roles ?? {})) {
    roles[role] = build(specFrom(value, `${where}: roles.${role}`), `${where}: roles.${role}`);
  }
  const port = createModel({
    provider,
    roles,
    concurrency: options.concurrency ?? config.concurrency ?? options.defaultConcurrency,
    cache: options.cacheDir ?? config.cache,
  });
  const roleIds = Object.fromEntries(Object.entries(roles).map(([r, p]) => [r, p.id]));
  return {
    port,
    describe: { default: provider.id, roles: roleIds },
    offline: [provider, ...Object.values(roles)].every((p) => p.id === 'offline'),
  };
}
