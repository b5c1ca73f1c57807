import { ConfigError, didYouMean, findConfigFile, loadModelConfig, shownValue, type MethodCatalog, type WorkflowEntry } from '@multihop/core';
import { z } from 'zod';

/** One setting given for a workflow (by its id) or for every workflow of a method (by the method's id). */
export interface SettingAssignment {
  target: string;
  key: string;
  value: unknown;
  /** Where it came from, for errors: `--set par2-rag.hopBudget=7`, `multihop.config.json: settings.par2-rag.hopBudget`. */
  where: string;
}

/**
 * Parses `--set <workflow or method>.<key>=<value>`. A value is read as JSON when it parses
 * (`7`, `0.5`, `true`, `"x"`), else kept as text (`llm`); the workflow's schema then checks it.
 */
export function parseSetFlags(flags: readonly string[]): SettingAssignment[] {
  return flags.map((flag) => {
    const where = `--set ${flag}`;
    // The target is anything up to the first `.<setting>=`: workflow ids may hold `:` and `+` (mao-arag-fixed:R+AG).
    const match = /^([a-z0-9][^.=\s]*)\.([A-Za-z_]\w*)=(.*)$/s.exec(flag.trim());
    if (!match) throw new ConfigError(`${where}: expected <workflow or method>.<setting>=<value>, e.g. --set par2-rag.hopBudget=7`);
    const [, target, key, raw] = match as unknown as [string, string, string, string];
    if (raw === '') throw new ConfigError(`${where}: no value after "="`);
    return { target, key, value: readValue(raw), where };
  });
}

/** `3,5,7` → [3, 5, 7]; each value read as in `--set`. */
export function parseValueList(raw: string, where: string): unknown[] {
  const values = raw.split(',').map((v) => v.trim());
  if (values.some((v) => v === '')) throw new ConfigError(`${where}: an empty value in "${raw}"`);
  return values.map(readValue);
}

function readValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The `settings` of the config file in use (see core's findConfigFile), as assignments. */
export function configFileSettings(env: Record<string, string | undefined> = process.env): SettingAssignment[] {
  const file = findConfigFile(env);
  if (!file) return [];
  const settings = loadModelConfig(file).settings ?? {};
  return Object.entries(settings).flatMap(([target, values]) =>
    Object.entries(values).map(([key, value]) => ({ target, key, value, where: `${file}: settings.${target}.${key}` })),
  );
}

/** A workflow entry with the settings it will run with. */
export interface ConfiguredWorkflow {
  entry: WorkflowEntry;
  /** Every setting with its value (defaults filled in); empty when the workflow declares none. */
  settings: Record<string, unknown>;
  /** Only the settings that differ from the paper's defaults because the user set them. */
  overrides: Record<string, unknown>;
}

/**
 * Resolves the settings of `entry` (of method `methodId`): the config file's, then `--set`'s,
 * each either for this workflow (by its id: strict, an unknown setting is an error) or for its
 * method (by the method's id: applied to each of the method's workflows that has the setting, so
 * `--set par2-rag.hopBudget=7` reaches the iterative chain and skips the Coverage Anchor, which
 * has no hop budget). The workflow's own assignments win. Values are checked by the workflow's
 * zod schema; errors name the flag or the config field, the setting and what is accepted.
 */
export function configureWorkflow(entry: WorkflowEntry, methodId: string, assignments: readonly SettingAssignment[]): ConfiguredWorkflow {
  const schema = entry.settings;
  const keys = schema ? Object.keys(schema.shape) : [];
  const own = assignments.filter((a) => a.target === entry.id);
  const methodWide = assignments.filter((a) => a.target !== entry.id && a.target === methodId && keys.includes(a.key));
  const ordered = [...methodWide, ...own];
  if (!schema) {
    if (own.length) throw new ConfigError(`${own[0]!.where}: workflow ${entry.id} declares no settings`);
    return { entry, settings: {}, overrides: {} };
  }
  const overrides: Record<string, unknown> = {};
  for (const a of ordered) {
    if (!keys.includes(a.key)) throw new ConfigError(`${a.where}: ${entry.id} has no setting "${a.key}"${didYouMean(a.key, keys)}${keys.length ? `; its settings: ${keys.join(', ')}` : ' (it has no settings)'}`);
    const field = (schema.shape as Record<string, z.ZodType>)[a.key]!;
    const checked = field.safeParse(a.value);
    if (!checked.success) {
      throw new ConfigError(`${a.where}: ${entry.id}.${a.key} = ${shownValue(a.value)} is not valid: ${checked.error.issues.map((i) => i.message).join('; ')}`);
    }
    overrides[a.key] = checked.data;
  }
  const parsed = schema.safeParse(overrides);
  if (!parsed.success) throw new ConfigError(`settings of ${entry.id}: ${z.prettifyError(parsed.error)}`);
  return { entry, settings: parsed.data as Record<string, unknown>, overrides };
}

/**
 * Checks that every assignment names a workflow or a method of the catalogue, and, for
 * `--set`, one this command runs: a setting for a workflow that will not run is a typo.
 */
export function checkTargets(assignments: readonly SettingAssignment[], catalog: MethodCatalog, running: readonly { entry: WorkflowEntry; methodId: string }[]): void {
  for (const a of assignments) {
    const known = catalog.find(a.target) !== undefined || catalog.methods.some((m) => m.id === a.target);
    if (!known) {
      throw new ConfigError(`${a.where}: "${a.target}" is neither a workflow nor a method; workflows: ${catalog.workflows.map((w) => w.entry.id).join(', ')}`);
    }
    if (!a.where.startsWith('--set')) continue;
    const targeted = running.filter((r) => r.entry.id === a.target || r.methodId === a.target);
    if (targeted.length === 0) {
      throw new ConfigError(`${a.where}: ${a.target} is not among the workflows this command runs (${running.map((r) => r.entry.id).join(', ')})`);
    }
    const reached = targeted.some((r) => r.entry.id === a.target || Object.keys(r.entry.settings?.shape ?? {}).includes(a.key));
    if (!reached) {
      throw new ConfigError(`${a.where}: no workflow of ${a.target} that this command runs has a setting "${a.key}" (${targeted.map((r) => `${r.entry.id}: ${Object.keys(r.entry.settings?.shape ?? {}).join(', ') || 'none'}`).join('; ')})`);
    }
  }
}

/** The config file's settings, then the `--set` flags (which win). */
export function settingAssignments(setFlags: readonly string[] = []): SettingAssignment[] {
  return [...configFileSettings(), ...parseSetFlags(setFlags)];
}
