/**
 * Whether a run's figures are the offline model's: a model id (`offline`), or a trace file's
 * `model` (the runner's description, `{ default, roles }`). `partly` when the offline model
 * served some roles only. Figures of the offline model are labelled wherever they appear.
 */
export function offlineModel(model: unknown): 'offline' | 'partly' | undefined {
  if (model === 'offline') return 'offline';
  if (typeof model !== 'object' || model === null) return undefined;
  const { default: main, roles } = model as { default?: unknown; roles?: Record<string, unknown> };
  const all = [main, ...Object.values(roles ?? {})];
  const offline = all.filter((m) => m === 'offline').length;
  if (offline === 0) return undefined;
  return offline === all.length ? 'offline' : 'partly';
}
