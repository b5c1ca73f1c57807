import { ConfigError, type Workflow } from '@multihop/core';
import { methodCatalog } from './methods';

/** A workflow id known to the installed methods, built with its paper's defaults. */
export function findWorkflow(id: string): Workflow {
  const catalog = methodCatalog();
  const found = catalog.find(id);
  if (!found) throw new ConfigError(`unknown workflow "${id}"; known: ${catalog.workflows.map((w) => w.entry.id).join(', ')}`);
  return found.entry.create();
}

/** Parses `a,b,c`, checking every id and refusing repeats. */
export function parseWorkflowList(list: string): Workflow[] {
  const ids = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) throw new ConfigError('--workflows names no workflow');
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated) throw new ConfigError(`--workflows names "${repeated}" twice`);
  return ids.map(findWorkflow);
}
