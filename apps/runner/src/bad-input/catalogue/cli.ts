import type { Kind } from '../harness';

/** The cli area's kinds of bad input and fault (see ../catalogue.ts). */
export const KINDS: readonly Kind[] = [];
