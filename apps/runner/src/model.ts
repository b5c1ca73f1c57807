import { ConfigError, createModelFromEnv, type OpenAIProviderSettings, type Provider, type ResolvedModel } from '@multihop/core';
import { createOfflineProvider } from '@multihop/offline-model';
import { sharedPrompts } from '@multihop/prompts';
import { writableDir } from './io';
import { methodCatalog, methodOfflineHandlers } from './methods';

/**
 * The OpenAI-compatible provider is loaded only when a role selects it: its client (the OpenAI
 * SDK and LangChain) is most of what a start-up would otherwise load for nothing. Each retry is
 * one line on stderr, so a slow or failing endpoint is never a silent wait.
 */
function openaiProvider(settings: OpenAIProviderSettings): Provider {
  const { createOpenAIProvider } = require('@multihop/provider-openai') as typeof import('@multihop/provider-openai');
  return createOpenAIProvider({ ...settings, onRetry: (r) => announceRetry(`${r.provider} (role ${r.role}, prompt ${r.promptId})`, r) });
}

/** One stderr line per failed attempt of an endpoint call (the model's, the embedder's) that is retried. */
export function announceRetry(who: string, r: { url: string; reason: string; attempt: number; maxAttempts: number; waitMs: number }): void {
  process.stderr.write(`multihop: ${who} at ${r.url}: ${r.reason}; attempt ${r.attempt} of ${r.maxAttempts} failed, retrying in ${r.waitMs} ms\n`);
}

/** Every role a workflow or the judge calls: a config file's `roles` may name only these. */
function knownRoles(): string[] {
  return [...methodCatalog().prompts, ...sharedPrompts.list()].map((p) => p.role);
}

export interface RunnerModel extends ResolvedModel {
  /** How printed figures name the model: the offline model always says what it is. */
  label: string;
  /**
   * The runs' fingerprints (ResolvedModel's without the judge's role, whose verdicts are kept
   * apart by its own set-up), with any user:password in a URL masked: run.json records them.
   */
  fingerprints: { default: string; roles: Record<string, string> };
  /** The fingerprint of the provider that serves the judge role, masked likewise. */
  judgeFingerprint: string;
  /**
   * The offline model serves some of the runs' roles and not all (`offline` is false): figures
   * may be its, and are labelled "partly offline model" wherever they appear.
   */
  partlyOffline: boolean;
}

/** The model from --model, MULTIHOP_MODEL or the config file; the offline model when none is set. */
export function resolveModel(
  flag: string | undefined,
  options: { cacheDir?: string; defaultConcurrency?: number; concurrency?: number; modelFlag?: string; roleModels?: Record<string, { model: string; source: string }> } = {},
): RunnerModel {
  const resolved = createModelFromEnv({
    model: flag,
    offline: () => createOfflineProvider({ handlers: methodOfflineHandlers(), latencyMs: offlineLatencyMs() }),
    openai: openaiProvider,
    knownRoles,
    ...options,
  });
  // The config file's cache is checked as --cache is (by the command, before any pair): a path through a
  // file, or one that cannot be written, is one line naming the file's field, not a failure of every call.
  if (resolved.cache && options.cacheDir === undefined) {
    writableDir(resolved.cache.dir, resolved.cache.source);
  }
  const fingerprints = {
    default: masked(resolved.fingerprints.default),
    roles: Object.fromEntries(Object.entries(resolved.fingerprints.roles).filter(([role]) => role !== 'judge').map(([role, fingerprint]) => [role, masked(fingerprint)])),
  };
  const judgeFingerprint = masked(resolved.fingerprints.roles['judge'] ?? resolved.fingerprints.default);
  return { ...resolved, ...labelled(resolved.describe), fingerprints, judgeFingerprint };
}

/**
 * The model as the runs of some workflows see it: a per-role model for a role none of them calls
 * (a config file set up for every method, an eval of one) is left out of its description, its
 * fingerprints and its label, so it neither names a model that served nothing nor makes a
 * directory of those workflows' runs refuse a resume when it is added or changed. The port is
 * the same. `roles` undefined (a workflow the catalogue does not know): every role is kept.
 */
export function modelFor(model: RunnerModel, roles: ReadonlySet<string> | undefined): RunnerModel {
  if (!roles) return model;
  const keep = <T>(byRole: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(byRole).filter(([role]) => role === 'judge' || roles.has(role)));
  const describe = { default: model.describe.default, roles: keep(model.describe.roles) };
  return { ...model, describe, ...labelled(describe), fingerprints: { default: model.fingerprints.default, roles: keep(model.fingerprints.roles) } };
}

/** Whether the runs' roles are all, some or none the offline model's, and the label printed figures carry. */
function labelled(describe: { default: string; roles: Record<string, string> }): Pick<RunnerModel, 'offline' | 'partlyOffline' | 'label'> {
  // The runs' models: a run never calls the judge, which an eval describes apart (its Judge line).
  const roles = Object.entries(describe.roles).filter(([role]) => role !== 'judge');
  const offline = [describe.default, ...roles.map(([, m]) => m)].every((m) => m === 'offline');
  const base = describe.default === 'offline' ? 'offline model (deterministic lexical stand-in, not a language model)' : describe.default;
  const offlineRoles = roles.filter(([, m]) => m === 'offline').map(([r]) => r);
  // A mixed run says which roles the offline model served, so its figures are never taken for a language model's.
  const partlyOffline = !offline && (describe.default === 'offline' || offlineRoles.length > 0);
  const mixed = partlyOffline ? ` (offline model, a lexical stand-in, served: ${describe.default === 'offline' ? 'every role not listed' : offlineRoles.join(', ')})` : '';
  const label = `${roles.length ? `${base}; per role: ${roles.map(([r, m]) => `${r}=${m}`).join(', ')}` : base}${mixed}`;
  return { offline, partlyOffline, label };
}

/** A provider's fingerprint with any user:password in a URL masked. */
function masked(fingerprint: string): string {
  return fingerprint.replace(/(\w+:\/\/)[^/@\s"]*@/g, '$1***@');
}

/**
 * MULTIHOP_OFFLINE_LATENCY_MS: the offline model answers each call after this many milliseconds,
 * standing in for a network model's latency (crash tests, queue benchmarks). Unset: at once.
 */
function offlineLatencyMs(): number {
  const raw = process.env['MULTIHOP_OFFLINE_LATENCY_MS'];
  if (raw === undefined || raw === '') return 0;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms < 0) throw new ConfigError(`MULTIHOP_OFFLINE_LATENCY_MS must be a number of milliseconds >= 0, got "${raw}"`);
  return ms;
}
