import type { Io } from '../io';
import { WORKFLOWS } from '../workflows';

export async function workflowsCommand(io: Io): Promise<number> {
  const rows = WORKFLOWS.map((entry) => {
    const workflow = entry.create();
    return { id: workflow.id, family: entry.family, engine: workflow.chart().engine, title: workflow.title, paper: workflow.paper };
  });
  const width = Math.max(...rows.map((r) => r.id.length));
  for (const r of rows) io.out(`${r.id.padEnd(width)}  ${r.engine.padEnd(9)}  ${r.title}\n${' '.repeat(width + 13)}${r.paper}`);
  return 0;
}
