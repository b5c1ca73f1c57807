import type { Kind } from './harness';
import { KINDS as cli } from './catalogue/cli';
import { KINDS as data } from './catalogue/data';
import { KINDS as provider } from './catalogue/provider';
import { KINDS as router } from './catalogue/router';

/**
 * Every kind of bad input and fault the suite runs through the real CLI, with how the CLI
 * answered it before issue 16 (`clear` for those that already got a clear answer). Each id is
 * tested by exactly one `it(kind('<id>'), ...)` in this folder; kinds.test.ts checks that.
 */
export const CATALOGUE: readonly (Kind & { area: string })[] = [
  ...cli.map((k) => ({ ...k, area: 'cli' })),
  ...data.map((k) => ({ ...k, area: 'data' })),
  ...provider.map((k) => ({ ...k, area: 'provider' })),
  ...router.map((k) => ({ ...k, area: 'router' })),
];
