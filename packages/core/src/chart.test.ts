import { toMermaid, validateChart, type Chart } from './chart';

const chart: Chart = {
  id: 'demo',
  engine: 'plain',
  guards: ['sufficient'],
  nodes: [
    { id: '__start__', kind: 'start' },
    { id: 'plan', kind: 'step', label: 'plan "sub-goals"' },
    { id: 'retrieve', kind: 'parallel' },
    { id: 'esc', kind: 'choice' },
    { id: '__end__', kind: 'end' },
  ],
  edges: [
    { from: '__start__', to: 'plan' },
    { from: 'plan', to: 'retrieve', kind: 'fanout', label: 'Send' },
    { from: 'retrieve', to: 'esc' },
    { from: 'esc', to: 'retrieve', kind: 'conditional', label: 'CONTINUE' },
    { from: 'esc', to: '__end__', kind: 'conditional', guard: 'sufficient' },
  ],
};

describe('charts', () => {
  it('renders a Mermaid flowchart with shapes per kind and labelled edges', () => {
    const text = toMermaid(chart);
    expect(text.split('\n')[0]).toBe('flowchart TD');
    expect(text).toContain('n0(("__start__"))');
    expect(text).toContain('n1["plan #quot;sub-goals#quot;"]');
    expect(text).toContain('n2[["retrieve"]]');
    expect(text).toContain('n3{"esc"}');
    expect(text).toContain('n1 ==>|"Send"| n2');
    expect(text).toContain('n3 -.->|"CONTINUE"| n2');
    expect(text).toContain('n3 -.->|"[sufficient]"| n4');
  });

  it('survives a JSON round trip', () => {
    expect(JSON.parse(JSON.stringify(chart))).toEqual(chart);
  });

  it('reports edges to unknown nodes and unlisted guards', () => {
    expect(validateChart(chart)).toEqual([]);
    const broken: Chart = { ...chart, edges: [...chart.edges, { from: 'esc', to: 'nowhere', guard: 'mystery' }] };
    expect(validateChart(broken)).toEqual(['edge to unknown node "nowhere"', 'edge esc → nowhere names unlisted guard "mystery"']);
  });
});
