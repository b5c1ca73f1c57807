import { TopologyError, toTopology, topologyProblems, trajectoryOfTopology, agentNamed, FALLBACK_TOPOLOGY } from './topology';

const topo = (steps: Array<[number | string, string, Array<number | string>]>) => ({ execution_order: steps.map(([step, agent, depends_on]) => ({ step, agent, depends_on })) });

describe('topology validation', () => {
  it('accepts a DAG, normalising agent names and ids, and reads its mode off the dependencies', () => {
    const t = toTopology(topo([[1, 'query decomposer', []], [2, 'Retriever', [1]], [3, 'retrieval', [1]], [4, 'Conclude', [2, 3]]]));
    expect(t.execution_order.map((s) => [s.step, s.agent, s.depends_on])).toEqual([
      ['1', 'Query Decomposer', []],
      ['2', 'Retriever', ['1']],
      ['3', 'Retriever', ['1']],
      ['4', 'Conclude Agent', ['2', '3']],
    ]);
    expect(t.mode).toBe('parallel');
    expect(t.selected_agents).toEqual(['Query Decomposer', 'Retriever', 'Conclude Agent']);
    expect(toTopology(topo([[1, 'Retriever', []], [2, 'Answer Generator', [1]]])).mode).toBe('sequential');
  });

  it('rejects a cycle with an error naming the steps of the loop', () => {
    expect(() => toTopology(topo([[1, 'Retriever', [2]], [2, 'Answer Generator', [1]]]))).toThrow(
      new TopologyError([{ kind: 'cycle', step: '1', message: 'steps 1, 2 depend on each other in a cycle: 1 → 2 → 1 (each depends on the next)' }]),
    );
  });

  it('rejects a dangling dependency, naming the step and the missing one', () => {
    const problems = topologyProblems(topo([[1, 'Retriever', []], [2, 'Answer Generator', [1, 9]]]));
    expect(problems).toEqual([{ kind: 'unknown-step', step: '2', message: 'step 2 depends on step 9, which is not in the plan (steps: 1, 2)' }]);
    expect(() => toTopology(topo([[1, 'Retriever', []], [2, 'Answer Generator', [1, 9]]]))).toThrow(/step 2 depends on step 9/);
  });

  it('rejects unknown agents, the Reflect Agent, self-dependencies, duplicates, an empty topology and one that never answers', () => {
    expect(topologyProblems(topo([[1, 'Summarizer', []], [2, 'Reflect Agent', [1]], [2, 'Answer Generator', [2]]])).map((p) => p.kind)).toEqual([
      'unknown-agent',
      'learning-agent',
      'duplicate-step',
      'self-reference',
    ]);
    expect(topologyProblems({}).map((p) => p.kind)).toEqual(['empty']);
    expect(topologyProblems(topo([[1, 'Retriever', []]])).map((p) => p.kind)).toEqual(['no-answer']);
    expect(topologyProblems(topo([[1, 'Retriever', []], [2, 'Answer Generator', [1]]]), 1).map((p) => p.kind)).toEqual(['too-many-steps']);
  });

  it('knows the pool by the names orchestrators write', () => {
    expect(['Validator', 'context_validator', 'Conclude', 'EvidenceSelector', 'Decomposer'].map(agentNamed)).toEqual(['Context Validator', 'Context Validator', 'Conclude Agent', 'Evidence Selector', 'Query Decomposer']);
    expect(agentNamed('Planner')).toBeUndefined();
  });

  it('the fallback is valid', () => {
    expect(topologyProblems(FALLBACK_TOPOLOGY)).toEqual([]);
  });
});

describe('trajectoryOfTopology', () => {
  it('draws one edge per dependency between the agents, so a reused agent makes a cycle and a Retriever after a Retriever a self-loop', () => {
    const chain = toTopology(topo([[1, 'Retriever', []], [2, 'Answer Generator', [1]], [3, 'Retriever', [2]], [4, 'Retriever', [3]], [5, 'Answer Generator', [4]]]));
    expect(trajectoryOfTopology(chain)).toEqual({
      nodes: ['Retriever', 'Answer Generator'],
      edges: [
        { from: 'Retriever', to: 'Answer Generator' },
        { from: 'Answer Generator', to: 'Retriever' },
        { from: 'Retriever', to: 'Retriever' },
        { from: 'Retriever', to: 'Answer Generator' },
      ],
    });
  });
});
