import type { Io } from '../io';
import { methodCatalog } from '../methods';

/** Lists every installed method's workflows from their manifests, without building any graph: engine, title, paper, settings with their defaults. */
export async function workflowsCommand(io: Io, options: { json?: boolean } = {}): Promise<number> {
  const rows = methodCatalog().workflows.map(({ method, entry }) => ({
    id: entry.id,
    engine: entry.engine,
    title: entry.title,
    paper: method.paper,
    defaults: (entry.settings ? entry.settings.parse({}) : {}) as Record<string, unknown>,
  })).map((r) => ({ ...r, settings: Object.entries(r.defaults).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`) }));
  if (options.json) {
    io.out(JSON.stringify(rows.map(({ id, engine, title, paper, defaults }) => ({ id, engine, title, paper, settings: defaults })), null, 2));
    return 0;
  }
  const width = Math.max(...rows.map((r) => r.id.length));
  const indent = ' '.repeat(width + 13);
  for (const r of rows) {
    io.out(`${r.id.padEnd(width)}  ${r.engine.padEnd(9)}  ${r.title}\n${indent}${r.paper}${r.settings.length ? `\n${indent}settings: ${r.settings.join(' ')}` : ''}`);
  }
  return 0;
}
