import { ConfigError } from '@multihop/core';

/** Closed: each question searches its own paragraphs (the distractor setting); open: one shared corpus. */
export type Setting = 'closed' | 'open';

/**
 * The one default of every command (ingest, run, eval, sweep, train, evolve, rollouts): open, the
 * dataset's pooled corpus, which every question of the file searches alike. `--setting closed`
 * gives each dataset question only its own paragraphs (the distractor setting).
 */
export const DEFAULT_SETTING: Setting = 'open';

export function parseSetting(value: string | undefined, fallback: Setting = DEFAULT_SETTING): Setting {
  if (value === undefined) return fallback;
  if (value !== 'closed' && value !== 'open') throw new ConfigError(`--setting must be closed or open, got "${value}"`);
  return value;
}
