/** A SQL string literal for LanceDB filters: single quotes doubled, so ids and titles with apostrophes are safe. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
