/** What every bench reads from its command line and reports: `--key=value` flags, and medians. */

/** What a bench takes: each flag's kind (`count`: a whole number ≥ 1, `number`, `text`, `switch`: no value). */
export type FlagKinds = Record<string, 'count' | 'number' | 'text' | 'switch'>;

/**
 * `--key=value` or `--key value` arguments by key (a `switch` reads `'true'`). A flag the bench does
 * not take, or a count or number that is none, stops the bench with a line naming it, rather than
 * running the defaults or printing a table of NaN.
 */
export function benchFlags(kinds: FlagKinds, argv: readonly string[] = process.argv.slice(2)): Record<string, string> {
  try {
    return parseBenchFlags(kinds, argv);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}

/** benchFlags' reading, throwing instead of exiting. */
export function parseBenchFlags(kinds: FlagKinds, argv: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const known = Object.keys(kinds).map((k) => `--${k}`).join(', ');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const match = /^--([\w-]+)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new Error(`bench: unexpected argument "${arg}"; this bench takes ${known}`);
    const [, key, given] = match as unknown as [string, string, string | undefined];
    const kind = kinds[key];
    if (!kind) throw new Error(`bench: unknown flag --${key}; this bench takes ${known}`);
    let value = given;
    if (kind === 'switch') value ??= 'true';
    else if (value === undefined) {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new Error(`bench: --${key} needs a value (--${key}=V or --${key} V)`);
      i++;
    }
    if (kind === 'count' && !(Number.isInteger(Number(value)) && Number(value) >= 1)) throw new Error(`bench: --${key} must be a whole number of at least 1, got "${value}"`);
    if (kind === 'number' && !Number.isFinite(Number(value))) throw new Error(`bench: --${key} must be a number, got "${value}"`);
    out[key] = value;
  }
  return out;
}

/** The median (the upper one of an even count); NaN for none. */
export function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
}
