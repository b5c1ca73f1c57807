import { holdThread, type ThreadRecord } from '@multihop/checkpoint';
import { ConfigError } from '@multihop/core';
import type { Io } from '../io';
import { openExistingStore, type ThreadSpec } from '../threads';

export interface ThreadsCommandOptions {
  checkpoints?: string;
  /** Thread ids to remove. */
  delete?: string[];
  /** Remove every finished thread (status done). */
  deleteFinished?: boolean;
  json: boolean;
}

/**
 * `multihop threads`: the threads of `run --thread` in a checkpoint store, newest first (what each
 * ran, how it stands, its answer once finished), and `--delete ID,...` or `--delete-finished` to
 * remove threads, their checkpoints and completed calls. A thread another process runs is not
 * removed: its lease is taken first, and a live holder is named.
 */
export async function threadsCommand(io: Io, options: ThreadsCommandOptions): Promise<number> {
  const store = await openExistingStore(options.checkpoints, 'runs');
  try {
    const threads = await store.listThreads();
    const removing = options.delete?.length || options.deleteFinished;
    if (!removing) {
      if (options.json) io.out(JSON.stringify(threads.map(describe), null, 2));
      else io.out(threads.length ? table(threads) : `no threads in ${store.location}`);
      return 0;
    }
    const known = new Map(threads.map((t) => [t.threadId, t]));
    const unknown = (options.delete ?? []).filter((id) => !known.has(id));
    if (unknown.length) {
      const some = threads.slice(0, 5).map((t) => t.threadId);
      throw new ConfigError(`--delete: no thread ${unknown.map((id) => `"${id}"`).join(', ')} in ${store.location}${some.length ? `; its threads include ${some.join(', ')}` : ' (it has none)'}`);
    }
    const ids = [...new Set([...(options.delete ?? []), ...(options.deleteFinished ? threads.filter((t) => t.status === 'done').map((t) => t.threadId) : [])])];
    // Each one is taken before it is removed: a thread another process is running is refused by
    // name (ThreadBusyError), and the ones before it stay removed.
    for (const id of ids) {
      const lease = await holdThread(store, id);
      try {
        await store.deleteThread(id);
      } finally {
        await lease.release().catch(() => undefined);
      }
      io.err(`removed thread ${id} (${known.get(id)!.status})`);
    }
    if (!ids.length) io.err(`no finished thread in ${store.location}`);
    return 0;
  } finally {
    await store.close();
  }
}

function describe(t: ThreadRecord) {
  const spec = (t.spec ?? {}) as Partial<ThreadSpec>;
  const result = (t.result ?? {}) as { answer?: string; status?: string; stopReason?: string };
  return {
    thread: t.threadId,
    workflow: spec.workflow,
    question: spec.question ?? (spec.dataset !== undefined ? `${spec.id} of ${spec.dataset}` : undefined),
    status: t.status,
    ...(t.status !== 'running' ? { result: result.status, ...(result.stopReason ? { stopReason: result.stopReason } : {}), answer: result.answer } : {}),
    created: t.createdAt,
    updated: t.updatedAt,
  };
}

function table(threads: ThreadRecord[]): string {
  const cell = (text: unknown, width: number) => {
    const s = String(text ?? '—').replace(/\s+/g, ' ');
    return s.length > width ? `${s.slice(0, width - 1)}…` : s;
  };
  const rows = threads.map(describe).map((d) => [d.thread, d.workflow, d.question, d.status === 'running' ? 'running (or killed: multihop resume continues it)' : `${d.status}, ${d.result}${d.stopReason ? ` (${d.stopReason})` : ''}`, 'answer' in d ? d.answer : '', d.updated]);
  return ['| thread | workflow | question | status | answer | updated |', '|---|---|---|---|---|---|', ...rows.map((r) => `| ${r.map((c) => cell(c, 60)).join(' | ')} |`)].join('\n');
}
