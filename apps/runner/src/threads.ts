import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkpointStoreExists, DEFAULT_CHECKPOINTS, holdThread, openCheckpointStore, type CheckpointStore } from '@multihop/checkpoint';
import { ConfigError, type DurableRunOptions, type RunResult } from '@multihop/core';
import { fingerprintChanges } from './eval/ResultsLog';
import type { Io } from './io';
import type { RunCommandOptions } from './commands/run';

/**
 * What a thread records of the `run` that started it: enough for `multihop resume` to run it
 * again, and the model it resolved to (from --model, MULTIHOP_MODEL or the config file), so a
 * resume from a shell whose model differs is refused rather than finished on another model.
 */
export type ThreadSpec = Omit<RunCommandOptions, 'thread' | 'checkpoints' | 'json'> & { resolvedModel?: { default: string; roles: Record<string, string> } };

/** A model's per-role models without the judge's (a run calls no judge). */
const runRoles = (m: { default: string; roles: Record<string, string> }) => ({ default: m.default, roles: Object.fromEntries(Object.entries(m.roles).filter(([role]) => role !== 'judge')) });

const modelText = (m: { default: string; roles: Record<string, string> }): string =>
  `${m.default}${Object.keys(m.roles).length ? ` (${Object.entries(m.roles).map(([role, id]) => `${role}: ${id}`).join(', ')})` : ''}`;

/** The run's own options of a recorded spec (what `resume` runs again). */
export function runOptionsOf(spec: ThreadSpec): Omit<RunCommandOptions, 'thread' | 'checkpoints' | 'json'> {
  const { resolvedModel: _model, ...options } = spec;
  return options;
}

/** What differs between a thread's recorded run and this command, option by option: `db "/x", now none; model "offline", now "openai:m"`. */
function optionChanges(was: Record<string, unknown>, now: Record<string, unknown>): string {
  const shown = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value));
  const changed = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter((key) => JSON.stringify(was[key]) !== JSON.stringify(now[key]));
  return `what differs: ${changed.map((key) => `${key} ${shown(was[key])}, now ${shown(now[key])}`).join('; ')}`;
}

/** The checkpoint store a command uses: --checkpoints, else MULTIHOP_CHECKPOINTS, else .multihop/checkpoints.sqlite. */
export function checkpointsLocation(flag: string | undefined): string {
  return flag ?? (process.env['MULTIHOP_CHECKPOINTS'] || DEFAULT_CHECKPOINTS);
}

export function openStore(flag: string | undefined): Promise<CheckpointStore> {
  return openCheckpointStore(checkpointsLocation(flag));
}

/**
 * The store of earlier `run --thread` runs, for a command that reads it (resume, threads): one that
 * does not exist is named, never made (a mistyped path is not left behind as an empty store).
 */
export function openExistingStore(flag: string | undefined, runs: 'run' | 'runs'): Promise<CheckpointStore> {
  const location = checkpointsLocation(flag);
  if (!checkpointStoreExists(location)) {
    throw new ConfigError(`no checkpoint store at ${location}: no run with --thread has used it${flag ? '' : `; give --checkpoints (or MULTIHOP_CHECKPOINTS) if the ${runs} used another store`}`);
  }
  return openCheckpointStore(location);
}

/** Where the runner's corpora live when no --db is given: relative to the directory it runs in. */
const DEFAULT_DB = '.multihop/lancedb';

/**
 * The spec a thread is recorded with: the run's own options, nothing about where it is stored or
 * printed. Files are recorded as absolute paths (a dataset file, a corpus file, the corpus
 * database, --db's default included), so `resume` from another directory runs the same question
 * on the same corpus rather than look for them there. A shared dataset's name and an object-store
 * URI are kept as given.
 */
export function threadSpec(options: RunCommandOptions): ThreadSpec {
  const { thread: _thread, checkpoints: _checkpoints, json: _json, ...spec } = options;
  const local = (path: string) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(path);
  if (spec.dataset !== undefined && existsSync(spec.dataset)) spec.dataset = resolve(spec.dataset);
  if (spec.corpus !== undefined && local(spec.corpus)) spec.corpus = resolve(spec.corpus);
  spec.db = spec.db === undefined ? resolve(DEFAULT_DB) : local(spec.db) ? resolve(spec.db) : spec.db;
  return JSON.parse(JSON.stringify(spec)) as ThreadSpec;
}

/** An open thread of `run --thread`: its durable options, how to record the end, and the store to close. */
export interface DurableThread {
  options: DurableRunOptions;
  /** Aborted if the thread's lease is lost to another process: the run stops. */
  signal: AbortSignal;
  end(result: RunResult): Promise<void>;
  /** Called as the run starts: from then on, the thread is kept whatever happens. */
  begin(): void;
  /** A thread this command made and never began (its question was not found, its corpus would not open) is forgotten, so its id can be given again. */
  discardIfUnused(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `run --thread ID`: the thread's durable options, recorded under the run's spec. A new id starts
 * a thread; an id already recorded for the same run continues it (as `resume` does); an id
 * recorded for another run is refused, naming both, so two runs never share a history.
 */
export async function openThread(io: Io, options: RunCommandOptions, model: ThreadSpec['resolvedModel'] & object, roles?: ReadonlySet<string>): Promise<DurableThread> {
  const threadId = options.thread!;
  if (!/^[\w.:-]{1,200}$/.test(threadId)) throw new ConfigError(`--thread "${threadId}": use letters, digits, and . _ : - (at most 200)`);
  const store = await openStore(options.checkpoints);
  // One process runs a thread at a time: a second `run --thread` or `resume` of it is refused,
  // naming the first. Taken before the thread is read, so what is read is not changed meanwhile.
  const lease = await holdThread(store, threadId).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  try {
    const spec: ThreadSpec = { ...threadSpec(options), resolvedModel: model };
    const existing = await store.getThread(threadId);
    if (existing && JSON.stringify(runOptionsOf(existing.spec as ThreadSpec)) !== JSON.stringify(runOptionsOf(spec))) {
      const was = existing.spec as ThreadSpec;
      throw new ConfigError(
        `thread "${threadId}" in ${store.location} belongs to another run (workflow ${was.workflow}, ${was.question ? `question "${was.question}"` : `question ${was.id} of ${was.dataset}`}, started ${existing.createdAt}; ${optionChanges(runOptionsOf(was), runOptionsOf(spec))}); continue it with \`multihop resume ${threadId}\`, or give a new --thread`,
      );
    }
    const finished = existing?.status === 'done';
    // Its completed calls were one model's: continuing on another would mix two models in one run.
    // (A finished thread makes no call: it answers again whatever the model.) Only the roles the
    // workflow calls count: a per-role model added since for another method's role changes nothing.
    const was = (existing?.spec as ThreadSpec | undefined)?.resolvedModel;
    if (was && !finished && fingerprintChanges(runRoles(was), runRoles(model), roles).length) {
      throw new ConfigError(
        `thread "${threadId}" ran with the model ${modelText(was)}, but this would continue it with ${modelText(model)}: a thread keeps one model; set the one it ran with (--model, MULTIHOP_MODEL or multihop.config.json) to continue it, or give a new --thread`,
      );
    }
    if (existing) io.err(`thread ${threadId}: ${finished ? 'already finished; its result again, with no model call' : 'continuing from its last checkpoint'} (${store.location})`);
    // A finished thread stays recorded as finished while it answers again.
    if (!finished) await store.startThread(threadId, spec);
    // Fenced by the lease: once another process has taken the thread, this one writes nothing more of it.
    // A thread that stopped at its deadline ended after its last checkpoint: its whole time is
    // counted again, so the deadline it reached stops it again, with no call.
    const ended = finished ? (existing!.result as { stopReason?: unknown; wallMs?: unknown } | undefined) : undefined;
    const durable: DurableRunOptions = {
      ...lease.durable(),
      ...(ended?.stopReason === 'budget:deadline' && typeof ended.wallMs === 'number' ? { elapsedMs: ended.wallMs } : {}),
    };
    let began = false;
    return {
      options: durable,
      signal: lease.signal,
      begin() {
        began = true;
      },
      async discardIfUnused() {
        if (!existing && !began) await store.deleteThread(threadId);
      },
      async end(result: RunResult) {
        // A process that lost its thread (stopped past its lease, and another took it) writes nothing of it.
        if (!(await lease.confirm())) throw lease.signal.reason;
        // A finished thread answers again with no call: an error now is this process's (its
        // checkpoints unreadable, say), not the run's, and the result the run recorded stays.
        if (finished && result.status === 'error') return;
        await store.endThread(threadId, result.status === 'error' ? 'error' : 'done', {
          answer: result.answer,
          status: result.status,
          ...(result.stopReason ? { stopReason: result.stopReason } : {}),
          ...(result.error ? { error: result.error } : {}),
          wallMs: result.usage.wallMs,
        });
      },
      async close() {
        await lease.release().catch(() => undefined);
        await store.close();
      },
    };
  } catch (error) {
    await lease.release().catch(() => undefined);
    await store.close();
    throw error;
  }
}
