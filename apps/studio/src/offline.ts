/**
 * Whether a run's figures are the offline model's: a model id (`offline`), or a trace file's
 * `model` (the runner's description, `{ default, roles }`). `partly` when the offline model
 * served some roles only. Figures of the offline model are labelled wherever they appear.
 */
export function offlineModel(model: unknown): 'offline' | 'partly' | undefined {
  if (model === 'offline') return 'offline';
  if (typeof model !== 'object' || model === null) return undefined;
  const { default: main, roles } = model as { default?: unknown; roles?: Record<string, unknown> };
  // The judge scores runs apart (an eval's Judge line): a run never calls it, so it does not make a run's figures offline.
  const all = [main, ...Object.entries(roles ?? {}).filter(([role]) => role !== 'judge').map(([, m]) => m)];
  const offline = all.filter((m) => m === 'offline').length;
  if (offline === 0) return undefined;
  return offline === all.length ? 'offline' : 'partly';
}

/** Whether an eval's figures are the offline model's: every role's (`offline`), or some roles' (`partly`). */
export function summaryOffline(summary: { offline: boolean; offline_partly?: boolean }): 'offline' | 'partly' | undefined {
  return summary.offline ? 'offline' : summary.offline_partly ? 'partly' : undefined;
}

/** A run's model as text: its id, or the default with the roles that differ (`openai:m; direct=offline`). */
export function modelText(model: unknown): string {
  if (typeof model === 'string') return model;
  if (typeof model !== 'object' || model === null) return '';
  const { default: main, roles } = model as { default?: unknown; roles?: Record<string, unknown> };
  const differing = Object.entries(roles ?? {}).filter(([role, m]) => role !== 'judge' && m !== main);
  return `${String(main)}${differing.length ? `; ${differing.map(([role, m]) => `${role}=${String(m)}`).join(', ')}` : ''}`;
}
