// LanceDB reads LANCEDB_LOG when its native module loads; without this every query logs a warning
// (CONVENTIONS.md). A require after the assignment keeps the order that hoisted imports would lose.
process.env.LANCEDB_LOG ??= 'error';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const lancedb: typeof import('@lancedb/lancedb') = require('@lancedb/lancedb');
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const arrow: typeof import('apache-arrow') = require('apache-arrow');

export type Connection = import('@lancedb/lancedb').Connection;
export type Table = import('@lancedb/lancedb').Table;
