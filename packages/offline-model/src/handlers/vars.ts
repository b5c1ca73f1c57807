import { MultihopError, type Passage } from '@multihop/core';

/** A string variable the handler needs; a clear error names the role and the variable otherwise. */
export function text(vars: Record<string, unknown>, name: string, role: string): string {
  const value = vars[name];
  if (typeof value !== 'string') {
    throw new MultihopError('OFFLINE_VARS', `offline model, role ${role}: variable "${name}" must be a string, got ${value === undefined ? 'nothing' : typeof value}`);
  }
  return value;
}

/** Passages from a variable holding `{title, text}` objects, or strings (each a passage of its own). */
export function passages(vars: Record<string, unknown>, name: string, role: string): Array<Pick<Passage, 'id' | 'title' | 'text'>> {
  const value = vars[name];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new MultihopError('OFFLINE_VARS', `offline model, role ${role}: variable "${name}" must be a list of passages`);
  return value.map((item, i) =>
    typeof item === 'string'
      ? { id: String(i), title: '', text: item }
      : { id: String((item as Passage).id ?? i), title: String((item as Passage).title ?? ''), text: String((item as Passage).text ?? '') },
  );
}

export function strings(vars: Record<string, unknown>, name: string): string[] {
  const value = vars[name];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
