/**
 * LanceDB's errors carry Rust source paths and debug dumps (`IO { source: Generic { store: ... },
 * location: Location { file: "/usr/local/cargo/...` ). These helpers turn the ones that mean a
 * damaged store into a short reason in words, and strip the internals from the rest.
 */

/** A short reason when `error` says the store's files are missing, truncated or not what they should be; else undefined. */
export function damageReason(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (/NotADirectory|Not a directory/.test(message)) return 'it is a regular file, not a directory';
  const file = /([^\s/,'"]+\.lance\/(?:data|_indices|_deletions)\/[^\s,'"]+)/.exec(message)?.[1];
  if (/Not found:|NotFound|No such file/i.test(message)) {
    if (file) return `${file.includes('/_indices/') ? 'index' : 'data'} file ${file} is missing`;
    const table = /([^\s/,'"]+)\.lance\/_versions/.exec(message)?.[1];
    if (table) return `the version files of table ${table} are missing`;
    const dataset = /Dataset at path \S*?([^\s/]+)\.lance was not found/.exec(message)?.[1];
    if (dataset) return `table ${dataset} is missing its files`;
  }
  if (/failed to fill whole buffer|UnexpectedEof|unexpected end of file|Invalid magic|not a lance file|out of range for slice|range end index/i.test(message)) {
    return file ? `file ${file} is truncated or corrupt` : 'a data file is truncated or corrupt';
  }
  const table = /Table '([^']+)' exists but could not be loaded/.exec(message)?.[1];
  if (table) return `table ${table} could not be loaded (corrupt or incomplete)`;
  if (/corrupt/i.test(message)) return plainLanceMessage(message).slice(0, 160);
  return undefined;
}

/** Whether `error` says a file of the store was not found (deleted under a reader, or damage). */
export function isMissingFile(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Not found:|NotFound|No such file/i.test(message);
}

/** LanceDB's message without Rust source locations, backtraces and debug structures, on one line. */
export function plainLanceMessage(message: string): string {
  return message
    .replace(/,?\s*location: Location \{[\s\S]*$/, '')
    .replace(/,?\s*\/(?:usr\/local\/cargo|rustc)\/\S+?:\d+:\d+/g, '')
    .replace(/\s*Caused by:[\s\S]*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}
