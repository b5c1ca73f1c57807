import { findCycles } from './findCycles';

const dag = (edges: Record<string, string[]>) => ({
  steps: Object.entries(edges).map(([id, dependsOn]) => ({ id, dependsOn })),
});

describe('findCycles', () => {
  it('finds none in a DAG', () => {
    expect(findCycles(dag({ '1': [], '2': ['1'], '3': ['1', '2'] }))).toEqual([]);
  });

  it('gives one loop per knot, starting at its earliest step', () => {
    expect(findCycles(dag({ a: ['c'], b: ['a'], c: ['b'], d: ['e'], e: ['d'] }))).toEqual([
      ['a', 'c', 'b'],
      ['d', 'e'],
    ]);
  });

  it('shows the shortest loop through a knot bigger than one loop', () => {
    expect(findCycles(dag({ '1': ['2', '3'], '2': ['1'], '3': ['4'], '4': ['1'] }))).toEqual([['1', '2']]);
  });

  it('leaves self-dependencies and unknown steps to validation', () => {
    expect(findCycles(dag({ '1': ['1'], '2': ['9'] }))).toEqual([]);
  });
});
