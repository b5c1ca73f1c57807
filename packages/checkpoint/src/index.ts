export { checkpointStoreExists, openCheckpointStore, DEFAULT_CHECKPOINTS } from './open';
export { openSqliteStore } from './sqlite';
export { openPostgresStore, redactUrl } from './postgres';
export { openMemoryStore } from './memory';
export type { CheckpointStore, LeaseHolder, LeaseState, ThreadRecord, ThreadStatus } from './CheckpointStore';
export { holdThread, ThreadBusyError, type ThreadLease, type HoldOptions } from './lease';
