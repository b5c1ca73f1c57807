import { ConfigError, type Workflow, type WorkflowContext } from '@multihop/core';
import { resolveEmbedder } from './embedder';
import { buildWorkflow, methodCatalog } from './methods';
import { checkTargets, configureWorkflow, type ConfiguredWorkflow, type SettingAssignment } from './workflowSettings';

/** A workflow built with its settings: the paper's defaults, then the config file's and `--set`'s. */
export interface SelectedWorkflow extends ConfiguredWorkflow {
  workflow: Workflow;
  methodId: string;
}

/** A workflow id known to the installed methods, built with its paper's defaults overridden by `assignments`. */
export function findWorkflow(id: string, assignments: readonly SettingAssignment[] = []): SelectedWorkflow {
  return selectWorkflows([id], assignments)[0]!;
}

/** Parses `a,b,c`, checking every id and refusing repeats. */
export function parseWorkflowList(list: string, assignments: readonly SettingAssignment[] = []): SelectedWorkflow[] {
  const ids = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) throw new ConfigError('--workflows names no workflow');
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated) throw new ConfigError(`--workflows names "${repeated}" twice`);
  return selectWorkflows(ids, assignments);
}

function selectWorkflows(ids: string[], assignments: readonly SettingAssignment[]): SelectedWorkflow[] {
  const catalog = methodCatalog();
  const found = ids.map((id) => {
    const hit = catalog.get(id);
    return { entry: hit.entry, methodId: hit.method.id };
  });
  checkTargets(assignments, catalog, found);
  return found.map(({ entry, methodId }) => {
    const configured = configureWorkflow(entry, methodId, assignments);
    return { ...configured, methodId, workflow: buildWorkflow(entry, methodId, configured.settings, workflowContext(assignments)) };
  });
}

/**
 * What a workflow that runs others (the router) builds them with: every installed workflow, each
 * with the same settings (`--set`, the config file) it would get on its own, and the runner's
 * embedders (for a router trained with embedding features).
 */
export function workflowContext(assignments: readonly SettingAssignment[] = []): WorkflowContext {
  return {
    workflowIds: () => methodCatalog().workflows.map((w) => w.entry.id),
    workflow: (id) => {
      const hit = methodCatalog().get(id);
      const configured = configureWorkflow(hit.entry, hit.method.id, assignments);
      return buildWorkflow(hit.entry, hit.method.id, configured.settings, workflowContext(assignments));
    },
    embedder: resolveEmbedder,
  };
}
