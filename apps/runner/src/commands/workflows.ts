import type { Io } from '../io';
import { methodCatalog } from '../methods';

/** Lists every installed method's workflows from their manifests, without building any graph. */
export async function workflowsCommand(io: Io): Promise<number> {
  const rows = methodCatalog().workflows.map(({ method, entry }) => ({ id: entry.id, engine: entry.engine, title: entry.title, paper: method.paper }));
  const width = Math.max(...rows.map((r) => r.id.length));
  for (const r of rows) io.out(`${r.id.padEnd(width)}  ${r.engine.padEnd(9)}  ${r.title}\n${' '.repeat(width + 13)}${r.paper}`);
  return 0;
}
