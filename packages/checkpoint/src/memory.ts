import { MemorySaver } from '@langchain/langgraph-checkpoint';
import type { CallJournal, RecordedCall } from '@multihop/core';
import { heldElsewhere, type CheckpointStore, type ThreadRecord } from './CheckpointStore';

/** A store that lives as long as the process: for tests and for runs that need no durability across processes. */
export function openMemoryStore(): CheckpointStore {
  const saver = new MemorySaver();
  const recorded = new Map<string, RecordedCall>();
  const threads = new Map<string, ThreadRecord>();
  const leases = new Map<string, { owner: string; expiresAt: number }>();
  const at = (threadId: string, key: string): string => `${threadId}\u0000${key}`;
  const calls: CallJournal = {
    async get(threadId, key) {
      const call = recorded.get(at(threadId, key));
      return call ? (JSON.parse(JSON.stringify(call)) as RecordedCall) : undefined;
    },
    async put(threadId, key, call) {
      // A recorded reply is never replaced, as in the SQL stores.
      if (!recorded.has(at(threadId, key))) recorded.set(at(threadId, key), JSON.parse(JSON.stringify(call)) as RecordedCall);
    },
  };
  return {
    location: 'memory',
    kind: 'memory',
    saver,
    calls,
    durable(threadId) {
      return { threadId, checkpointer: saver, calls, store: 'memory' };
    },
    async getThread(threadId) {
      return threads.get(threadId);
    },
    async startThread(threadId, spec) {
      const now = new Date().toISOString();
      threads.set(threadId, { threadId, spec, status: 'running', createdAt: threads.get(threadId)?.createdAt ?? now, updatedAt: now });
    },
    async endThread(threadId, status, result) {
      const thread = threads.get(threadId);
      if (thread) threads.set(threadId, { ...thread, status, ...(result !== undefined ? { result } : {}), updatedAt: new Date().toISOString() });
    },
    async listThreads() {
      return [...threads.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    },
    async deleteThread(threadId) {
      await saver.deleteThread(threadId);
      for (const key of [...recorded.keys()]) if (key.startsWith(`${threadId}\u0000`)) recorded.delete(key);
      threads.delete(threadId);
    },
    async acquireLease(threadId, owner, ttlMs) {
      const now = Date.now();
      const lease = leases.get(threadId);
      if (lease && lease.owner !== owner && lease.expiresAt > now) return heldElsewhere(lease.owner, lease.expiresAt);
      leases.set(threadId, { owner, expiresAt: now + ttlMs });
      return { held: true };
    },
    async renewLease(threadId, owner, ttlMs) {
      const lease = leases.get(threadId);
      if (lease?.owner !== owner) return false;
      lease.expiresAt = Date.now() + ttlMs;
      return true;
    },
    async releaseLease(threadId, owner) {
      if (leases.get(threadId)?.owner === owner) leases.delete(threadId);
    },
    async close() {},
  };
}
