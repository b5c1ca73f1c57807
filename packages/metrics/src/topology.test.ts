import { InputError } from '@multihop/core';
import fc from 'fast-check';
import { topologyMetrics, trajectoryFromSequence, transitionEntropy, transitionEntropySeries, type TrajectoryGraph } from './topology';

const graph = (edges: Array<[string, string]>, nodes: string[] = []): TrajectoryGraph => ({ nodes, edges: edges.map(([from, to]) => ({ from, to })) });

describe('trajectoryFromSequence', () => {
  it('links consecutive agents, keeping repeated transitions', () => {
    expect(trajectoryFromSequence(['plan', 'retrieve', 'retrieve', 'plan', 'retrieve'])).toEqual({
      nodes: ['plan', 'retrieve', 'retrieve', 'plan', 'retrieve'],
      edges: [
        { from: 'plan', to: 'retrieve' },
        { from: 'retrieve', to: 'retrieve' },
        { from: 'retrieve', to: 'plan' },
        { from: 'plan', to: 'retrieve' },
      ],
    });
  });
});

describe('topologyMetrics (HERA §5.4.2)', () => {
  it('measures an iterative run with a self-loop and one closed loop', () => {
    const run = trajectoryFromSequence(['planner', 'retriever', 'retriever', 'answerer', 'planner', 'retriever', 'answerer']);
    // Distinct non-self edges: planner→retriever→answerer→planner, one cycle; every pair is 1 or 2 apart.
    expect(topologyMetrics(run, 0.6)).toEqual({ agents: 3, nodeEfficiency: expect.closeTo(0.2, 12), selfLoops: 1, cycles: 1, diameter: 2 });
  });

  it('gives a chain no cycle and a diameter of its length', () => {
    expect(topologyMetrics(trajectoryFromSequence(['a', 'b', 'c', 'd']), 1)).toEqual({ agents: 4, nodeEfficiency: 0.25, selfLoops: 0, cycles: 0, diameter: 3 });
  });

  it('follows edge direction for the diameter and counts overlapping cycles separately', () => {
    // Cycles a→b→a and a→b→c→a; c reaches b only through a, 2 steps.
    expect(topologyMetrics(graph([['a', 'b'], ['b', 'a'], ['b', 'c'], ['c', 'a']]), 0)).toMatchObject({ cycles: 2, diameter: 2 });
    // Undirected, the ring a-b-c would have diameter 1; directed, a needs two steps to reach c.
    expect(topologyMetrics(graph([['a', 'b'], ['b', 'c'], ['c', 'a']]), 0)).toMatchObject({ cycles: 1, diameter: 2 });
  });

  it('handles a parallel fan-out and fan-in (a DAG)', () => {
    const dag = graph([['plan', 'r1'], ['plan', 'r2'], ['r1', 'answer'], ['r2', 'answer']]);
    expect(topologyMetrics(dag, 0.8)).toEqual({ agents: 4, nodeEfficiency: 0.2, selfLoops: 0, cycles: 0, diameter: 2 });
  });

  it('counts self-loops with repetition but not as cycles', () => {
    expect(topologyMetrics(graph([['a', 'a'], ['a', 'a'], ['a', 'b']]), 1)).toMatchObject({ selfLoops: 2, cycles: 0, agents: 2 });
  });

  it('counts listed nodes without edges and handles empty trajectories', () => {
    expect(topologyMetrics(graph([], ['solo']), 1)).toEqual({ agents: 1, nodeEfficiency: 1, selfLoops: 0, cycles: 0, diameter: 0 });
    expect(topologyMetrics(graph([]), 1)).toEqual({ agents: 0, nodeEfficiency: 0, selfLoops: 0, cycles: 0, diameter: 0 });
  });

  it('counts Σₖ C(n,k)(k−1)! simple cycles in a complete directed graph', () => {
    const complete = (n: number): TrajectoryGraph => {
      const names = Array.from({ length: n }, (_, i) => `n${i}`);
      return graph(names.flatMap((a) => names.filter((b) => b !== a).map((b): [string, string] => [a, b])));
    };
    expect(topologyMetrics(complete(3), 0).cycles).toBe(3 + 2);
    expect(topologyMetrics(complete(4), 0).cycles).toBe(6 + 4 * 2 + 6);
  });

  it('gives a run of distinct agents no cycle and diameter |V| − 1', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }), (agents) => {
        const m = topologyMetrics(trajectoryFromSequence(agents), 1);
        return m.cycles === 0 && m.diameter === agents.length - 1 && m.agents === agents.length;
      }),
    );
  });
});

describe('transitionEntropy (HERA §5.4.1)', () => {
  it('is 0 for a single repeated transition and for no transition', () => {
    expect(transitionEntropy([graph([['a', 'b']]), graph([['a', 'b']])])).toBe(0);
    expect(transitionEntropy([graph([], ['a'])])).toBe(0);
  });

  it('is the Shannon entropy in bits of the pooled transition distribution', () => {
    expect(transitionEntropy([trajectoryFromSequence(['a', 'b', 'c'])])).toBe(1);
    // a→b three times, b→c once: −(¾ log₂ ¾ + ¼ log₂ ¼)
    const runs = [trajectoryFromSequence(['a', 'b']), trajectoryFromSequence(['a', 'b', 'c']), trajectoryFromSequence(['a', 'b'])];
    expect(transitionEntropy(runs)).toBeCloseTo(0.8112781244591328, 12);
  });

  it('uses the joint transition probability, as the paper’s formula writes it', () => {
    // a→b, a→c, b→c once each: joint entropy log₂ 3. Conditional entropy would be 2/3 bit.
    expect(transitionEntropy([graph([['a', 'b'], ['a', 'c'], ['b', 'c']])])).toBeCloseTo(Math.log2(3), 12);
  });

  it('keeps agent names apart even when they contain separators', () => {
    expect(transitionEntropy([graph([['a|b', 'c'], ['a', 'b|c']])])).toBe(1);
  });

  it('lies between 0 and log₂ of the number of distinct transitions, whatever the run order', () => {
    const run = fc.array(fc.constantFrom('p', 'r', 'w', 'v'), { maxLength: 6 }).map(trajectoryFromSequence);
    fc.assert(
      fc.property(fc.array(run, { maxLength: 5 }), (runs) => {
        const h = transitionEntropy(runs);
        const distinct = new Set(runs.flatMap((r) => r.edges.map((e) => `${e.from}>${e.to}`))).size;
        const bound = distinct === 0 ? 0 : Math.log2(distinct);
        return h >= 0 && h <= bound + 1e-12 && Math.abs(transitionEntropy([...runs].reverse()) - h) < 1e-12;
      }),
    );
  });
});

describe('transitionEntropySeries', () => {
  const runs = [trajectoryFromSequence(['a', 'b']), trajectoryFromSequence(['a', 'b']), trajectoryFromSequence(['b', 'c'])];

  it('gives one value per full sliding window of runs', () => {
    expect(transitionEntropySeries(runs, 2)).toEqual([0, 1]);
    expect(transitionEntropySeries(runs, 1)).toEqual([0, 0, 0]);
    expect(transitionEntropySeries(runs, 4)).toEqual([]);
  });

  it('rejects a window that is not a positive integer', () => {
    expect(() => transitionEntropySeries(runs, 0)).toThrow(InputError);
  });
});
