import { main } from '@multihop/runner';
import type { Chart } from './types';
import { nodeAriaLabel } from './a11y';

/** A workflow's chart as `multihop chart <id> --format json` prints it (the studio's /api/workflows serves the same). */
async function chartOf(id: string): Promise<Chart> {
  let printed = '';
  const code = await main(['chart', id, '--format', 'json'], { out: (text) => void (printed += text), err: () => undefined });
  expect(code).toBe(0);
  return JSON.parse(printed) as Chart;
}

describe('nodeAriaLabel (what a screen reader says for a chart node)', () => {
  it('names every node of a real chart, the text-less start and end pseudo-states included', async () => {
    const chart = await chartOf('par2-rag');
    const labels = new Map(chart.nodes.map((node) => [node.id, nodeAriaLabel(node)]));
    for (const [id, label] of labels) expect({ id, empty: label.trim() === '' }).toEqual({ id, empty: false });
    const start = chart.nodes.find((n) => n.kind === 'start' && n.id.startsWith('__'));
    expect(start && labels.get(start.id)).toBe('start');
    const esc = chart.nodes.find((n) => n.id === 'esc')!;
    expect(labels.get('esc')).toContain(esc.kind === 'choice' ? 'decision' : 'state');
    // Distinct nodes are told apart.
    const named = chart.nodes.filter((n) => !n.id.startsWith('__')).map((n) => labels.get(n.id));
    expect(new Set(named).size).toBe(named.length);
  });

  it('says where a run stands on the node', () => {
    const node = { id: 'plan', kind: 'step', label: 'plan · Planner' } as Chart['nodes'][number];
    expect(nodeAriaLabel(node)).toBe('state plan, Planner');
    expect(nodeAriaLabel(node, 'active')).toBe('state plan, Planner, active');
    expect(nodeAriaLabel(node, 'visited', 2)).toBe('state plan, Planner, entered 2×');
  });
});
