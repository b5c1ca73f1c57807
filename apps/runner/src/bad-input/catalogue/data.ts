import type { Kind } from '../harness';

/** The data area's kinds of bad input and fault (see ../catalogue.ts). */
export const KINDS: readonly Kind[] = [];
