import type { Io } from '../io';
import { methodCatalog } from '../methods';

/** Lists every installed method's workflows from their manifests, without building any graph: engine, title, paper, settings with their defaults. */
export async function workflowsCommand(io: Io): Promise<number> {
  const rows = methodCatalog().workflows.map(({ method, entry }) => ({
    id: entry.id,
    engine: entry.engine,
    title: entry.title,
    paper: method.paper,
    settings: entry.settings ? Object.entries(entry.settings.parse({}) as Record<string, unknown>).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`) : [],
  }));
  const width = Math.max(...rows.map((r) => r.id.length));
  const indent = ' '.repeat(width + 13);
  for (const r of rows) {
    io.out(`${r.id.padEnd(width)}  ${r.engine.padEnd(9)}  ${r.title}\n${indent}${r.paper}${r.settings.length ? `\n${indent}settings: ${r.settings.join(' ')}` : ''}`);
  }
  return 0;
}
