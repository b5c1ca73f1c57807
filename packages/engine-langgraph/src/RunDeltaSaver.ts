import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  INTERRUPT,
  RESUME,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from '@langchain/langgraph-checkpoint';
import { MultihopError, RUN_DELTA_KEY, type DurableContext } from '@multihop/core';

/**
 * A checkpointer over the store's own that adds core's share of the run to every top-level
 * checkpoint of a durable run in progress: the trace events, evidence and draft gained since
 * the previous checkpoint (DurableContext.capture). Everything else is passed through, so the
 * store keeps LangGraph's format and any LangGraph tool can read it.
 *
 * With `durability: "sync"` LangGraph writes a step's checkpoint before the next step starts, so
 * the events captured at `put` are exactly the ones of the steps the checkpoint covers.
 */
export class RunDeltaSaver extends BaseCheckpointSaver {
  private static readonly wrappers = new WeakMap<BaseCheckpointSaver, RunDeltaSaver>();
  private readonly runs = new Map<string, DurableContext>();

  private constructor(readonly inner: BaseCheckpointSaver) {
    super(inner.serde);
  }

  /** The one wrapper of a store's checkpointer (so the graph compiled with it is reused). */
  static over(inner: BaseCheckpointSaver): RunDeltaSaver {
    if (inner instanceof RunDeltaSaver) return inner;
    let wrapper = RunDeltaSaver.wrappers.get(inner);
    if (!wrapper) RunDeltaSaver.wrappers.set(inner, (wrapper = new RunDeltaSaver(inner)));
    return wrapper;
  }

  /** Routes the checkpoints of `threadId` to this run's capture until the returned function is called. */
  attach(threadId: string, durable: DurableContext): () => void {
    if (this.runs.has(threadId)) throw new MultihopError('CHECKPOINT', `thread ${threadId} is already running in this process; one run per thread at a time`);
    this.runs.set(threadId, durable);
    return () => {
      this.runs.delete(threadId);
    };
  }

  /**
   * For a durable run resuming, the latest checkpoint without the writes of tasks that finished
   * inside the step that was cut short (LangGraph's pending writes; interrupts and resume values
   * stay). So the whole step runs again: its finished tasks get their model calls back from the
   * journal, for nothing, and their trace events and evidence, which no checkpoint holds, are
   * produced again in order.
   */
  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const tuple = await this.inner.getTuple(config);
    const threadId = config.configurable?.['thread_id'] as string | undefined;
    if (!tuple || threadId === undefined || config.configurable?.['checkpoint_ns'] || !this.runs.has(threadId)) return tuple;
    return { ...tuple, pendingWrites: tuple.pendingWrites?.filter(([, channel]) => channel === INTERRUPT || channel === RESUME) ?? [] };
  }

  override list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.inner.list(config, options);
  }

  override put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    const threadId = config.configurable?.['thread_id'] as string | undefined;
    const durable = threadId !== undefined && !config.configurable?.['checkpoint_ns'] ? this.runs.get(threadId) : undefined;
    const withRun = durable ? ({ ...metadata, [RUN_DELTA_KEY]: durable.capture() } as CheckpointMetadata) : metadata;
    return this.inner.put(config, checkpoint, withRun, newVersions);
  }

  override putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    return this.inner.putWrites(config, writes, taskId);
  }

  override deleteThread(threadId: string): Promise<void> {
    return this.inner.deleteThread(threadId);
  }
}
