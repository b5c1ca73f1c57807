/** Reading the loosely typed `data` of trace events without `any`. */

export type Data = Record<string, unknown>;

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
export const obj = (value: unknown): Data | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Data) : undefined);
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const strings = (value: unknown): string[] => list(value).filter((item): item is string => typeof item === 'string');

/** `text` cut short without half a character: a high surrogate left at its end (half an emoji) is dropped. */
const whole = (text: string): string => (/[\uD800-\uDBFF]$/.test(text) ? text.slice(0, -1) : text);

/** A short one-line rendering of any value. */
export function brief(value: unknown, max = 90): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > max ? `${whole(text.slice(0, max - 1))}…` : text;
}

export function pretty(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? String(value);
}
