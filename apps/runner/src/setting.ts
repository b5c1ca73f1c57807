import { ConfigError } from '@multihop/core';

/** Closed: each question searches its own paragraphs (the distractor setting); open: one shared corpus. */
export type Setting = 'closed' | 'open';

export function parseSetting(value: string | undefined, fallback: Setting): Setting {
  if (value === undefined) return fallback;
  if (value !== 'closed' && value !== 'open') throw new ConfigError(`--setting must be closed or open, got "${value}"`);
  return value;
}
