import type { RunnableConfig } from '@langchain/core/runnables';
import { emptyCheckpoint, uuid6, type BaseCheckpointSaver, type CheckpointMetadata } from '@langchain/langgraph-checkpoint';
import { MultihopError, RUN_DELTA_KEY, type DurableContext, type RunDelta } from '@multihop/core';

/** The channel under which a checkpoint holds the actor's persisted snapshot. */
export const SNAPSHOT_CHANNEL = 'xstate_snapshot';

/**
 * An XState run's checkpoints in the durable run's store, written through LangGraph's checkpoint
 * saver interface so one store (SQLite, Postgres, memory) holds both engines' threads: each
 * checkpoint is the actor's persisted snapshot after a macrostep, plus core's share of the run
 * up to the transition that led there. Writes are chained in order; `flush` waits for them.
 */
export class SnapshotCheckpoints {
  private config: RunnableConfig;
  private step = -1;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly saver: BaseCheckpointSaver,
    private readonly threadId: string,
  ) {
    this.config = { configurable: { thread_id: threadId, checkpoint_ns: '' } };
  }

  static of(durable: DurableContext): SnapshotCheckpoints {
    return new SnapshotCheckpoints(durable.checkpointer as BaseCheckpointSaver, durable.threadId);
  }

  /** The latest persisted snapshot of the thread, or undefined for a new thread. */
  async latest(): Promise<unknown> {
    const tuple = await this.saver.getTuple(this.config);
    if (!tuple) return undefined;
    const snapshot = tuple.checkpoint.channel_values[SNAPSHOT_CHANNEL];
    if (snapshot === undefined) {
      throw new MultihopError('CHECKPOINT', `thread ${this.threadId}: its latest checkpoint holds no XState snapshot (a thread of a LangGraph workflow?); resume it with the workflow that started it`);
    }
    this.config = tuple.config;
    this.step = typeof tuple.metadata?.step === 'number' ? tuple.metadata.step : this.step;
    return snapshot;
  }

  /** Queues a checkpoint of `snapshot` (JSON-safe) with core's share of the run. */
  save(snapshot: unknown, delta: RunDelta): void {
    const step = ++this.step;
    const checkpoint = {
      ...emptyCheckpoint(),
      id: uuid6(-1),
      ts: new Date().toISOString(),
      channel_values: { [SNAPSHOT_CHANNEL]: snapshot },
      channel_versions: { [SNAPSHOT_CHANNEL]: step + 1 },
    };
    const metadata = { source: 'loop', step, parents: {}, [RUN_DELTA_KEY]: delta } as CheckpointMetadata;
    this.chain = this.chain
      .then(async () => {
        this.config = await this.saver.put(this.config, checkpoint, metadata, { [SNAPSHOT_CHANNEL]: step + 1 });
      })
      .catch((error: unknown) => {
        this.failure ??= error;
      });
  }

  /** Waits for every queued checkpoint; rethrows the first write that failed. */
  async flush(): Promise<void> {
    await this.chain;
    if (this.failure !== undefined) {
      throw new MultihopError('CHECKPOINT', `thread ${this.threadId}: a checkpoint could not be written (${this.failure instanceof Error ? this.failure.message : String(this.failure)})`, { cause: this.failure });
    }
  }
}
