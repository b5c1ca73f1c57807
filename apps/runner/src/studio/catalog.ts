import { jsonSchemaOf, type MethodManifest, type PromptTemplate } from '@multihop/core';
import { methodCatalog } from '../methods';
import { workflowContext } from '../workflows';
import { configureWorkflow } from '../workflowSettings';
import type { StudioNodeInfo, StudioPrompt, StudioWorkflow } from './protocol';

/** What a prompt of @multihop/prompts carries besides the port's contract: its text as written. */
interface WrittenPrompt extends PromptTemplate {
  description?: string;
  system?: string;
  template?: string;
}

/** A prompt as the page shows it: template, system text, reply form and the output's JSON Schema. */
export function describePrompt(prompt: PromptTemplate): StudioPrompt {
  const written = prompt as WrittenPrompt;
  return {
    id: prompt.id,
    role: prompt.role,
    version: prompt.version,
    ...(written.description ? { description: written.description } : {}),
    ...(written.system ? { system: written.system } : {}),
    template: written.template ?? '(this prompt renders its messages in code; no template text)',
    reply: prompt.reply ? 'text' : 'json',
    schema: jsonSchemaOf(prompt.schema),
    ...(prompt.reply ? { instructions: prompt.reply.instructions } : {}),
  };
}

/** The node → agent and prompts map of a method, with every prompt spelled out. */
function methodNodes(method: MethodManifest): Record<string, StudioNodeInfo> {
  const prompts = new Map(method.prompts.map((p) => [p.id, p]));
  const nodes: Record<string, StudioNodeInfo> = {};
  for (const [id, node] of Object.entries(method.nodes ?? {})) {
    nodes[id] = {
      ...(node.agent ? { agent: node.agent } : {}),
      description: node.description,
      prompts: (node.prompts ?? []).flatMap((pid) => {
        const prompt = prompts.get(pid);
        return prompt ? [describePrompt(prompt)] : [];
      }),
    };
  }
  return nodes;
}

/**
 * Every workflow of every installed method manifest, as the workflow list and chart view need
 * it: the chart each builds with its paper's defaults (the config file's settings included,
 * as `multihop chart` does), its settings, and what acts at each node.
 */
export function studioWorkflows(): StudioWorkflow[] {
  const catalog = methodCatalog();
  const byMethod = new Map(catalog.methods.map((m) => [m.id, methodNodes(m)]));
  return catalog.workflows.map(({ method, entry }) => {
    const { settings } = configureWorkflow(entry, method.id, []);
    const chart = entry.create(settings, workflowContext()).chart();
    const all = byMethod.get(method.id) ?? {};
    const onChart = new Set(chart.nodes.map((n) => n.id));
    return {
      id: entry.id,
      title: entry.title,
      engine: entry.engine,
      variant: entry.variant,
      method: { id: method.id, family: method.family, paper: method.paper },
      settings,
      chart,
      nodes: Object.fromEntries(Object.entries(all).filter(([id]) => onChart.has(id))),
    };
  });
}
