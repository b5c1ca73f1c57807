import { ConfigError, MultihopError } from '@multihop/core';
import type { Io } from '../io';
import { checkpointsLocation, openExistingStore, runOptionsOf, type ThreadSpec } from '../threads';
import { runCommand } from './run';

export interface ResumeCommandOptions {
  thread?: string;
  checkpoints?: string;
  json: boolean;
}

/**
 * `multihop resume <thread>`: runs the thread's recorded `run` again under the same thread, so it
 * continues from its last checkpoint: the steps already done are not run again and no model call
 * already made is made again. A finished thread prints its result with no call.
 */
export async function resumeCommand(io: Io, options: ResumeCommandOptions): Promise<number> {
  if (!options.thread) throw new ConfigError('resume needs a thread id: multihop resume <thread id> (threads are started with multihop run ... --thread <id>)');
  const store = await openExistingStore(options.checkpoints, 'run');
  let spec: ThreadSpec;
  try {
    const thread = await store.getThread(options.thread);
    if (!thread) {
      const known = (await store.listThreads()).slice(0, 5).map((t) => `${t.threadId} (${(t.spec as ThreadSpec).workflow}, ${t.status})`);
      throw new ConfigError(
        `no thread "${options.thread}" in ${store.location}${known.length ? `; recent threads: ${known.join(', ')}` : ' (it has none)'}${options.checkpoints ? '' : '; give --checkpoints if the run used another store'}`,
      );
    }
    spec = thread.spec as ThreadSpec;
    if (!spec || typeof spec !== 'object' || typeof spec.workflow !== 'string' || !(typeof spec.question === 'string' || (typeof spec.dataset === 'string' && typeof spec.id === 'string'))) {
      throw new MultihopError('STORE_DAMAGED', `checkpoint store ${store.location}: thread "${options.thread}" records no run to continue (its spec names no workflow, or no question); the store is damaged or was edited: start the run again with a new --thread`);
    }
  } finally {
    await store.close();
  }
  return runCommand(io, { ...runOptionsOf(spec), thread: options.thread, checkpoints: checkpointsLocation(options.checkpoints), json: options.json });
}
