export { openCheckpointStore, DEFAULT_CHECKPOINTS } from './open';
export { openSqliteStore } from './sqlite';
export { openPostgresStore, redactUrl } from './postgres';
export { openMemoryStore } from './memory';
export type { CheckpointStore, ThreadRecord, ThreadStatus } from './CheckpointStore';
