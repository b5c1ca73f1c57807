/** What every bench reads from its command line and reports: `--key=value` flags, and medians. */

/** `--key=value` arguments by key; a bare `--key` reads `'true'`. */
export function benchFlags(argv: readonly string[] = process.argv.slice(2)): Record<string, string> {
  return Object.fromEntries(
    argv.map((a) => {
      const [key, value] = a.replace(/^--/, '').split('=');
      return [key ?? '', value ?? 'true'];
    }),
  );
}

/** The median (the upper one of an even count); NaN for none. */
export function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
}
