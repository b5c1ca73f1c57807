export { openCheckpointStore, DEFAULT_CHECKPOINTS } from './open';
export { openSqliteStore } from './sqlite';
export { openPostgresStore, redactUrl } from './postgres';
export { openMemoryStore } from './memory';
export type { CheckpointStore, LeaseState, ThreadRecord, ThreadStatus } from './CheckpointStore';
export { holdThread, ownerId, ThreadBusyError, DEFAULT_LEASE_MS, type ThreadLease, type HoldOptions } from './lease';
