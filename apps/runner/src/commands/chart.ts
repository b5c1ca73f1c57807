import { ConfigError, toMermaid } from '@multihop/core';
import type { Io } from '../io';
import { findWorkflow } from '../workflows';
import { settingAssignments } from '../workflowSettings';

/** The chart of a workflow as built with its settings (`--set opera.synthesis=llm` adds OPERA's synthesis state). */
export async function chartCommand(io: Io, id: string | undefined, format = 'mermaid', set: string[] = []): Promise<number> {
  if (!id) throw new ConfigError('usage: multihop chart <workflow> [--format mermaid|json]');
  if (format !== 'mermaid' && format !== 'json') throw new ConfigError(`--format must be mermaid or json, got "${format}"`);
  const chart = findWorkflow(id, settingAssignments(set)).workflow.chart();
  io.out(format === 'json' ? JSON.stringify(chart, null, 2) : toMermaid(chart));
  return 0;
}
