import {
  EXECUTORS,
  FALLBACK_WORKFLOW,
  parsePlan,
  SUB_LEVEL_WORKFLOWS,
  TOP_LEVEL_WORKFLOWS,
  validityProblems,
  workflowKey,
  type PlanLevel,
} from './workflowSpace';

/** Every sequence of distinct names from `names`, of length 1..max. */
function sequences(names: readonly string[], max: number): string[][] {
  const out: string[][] = [];
  const grow = (prefix: string[]) => {
    if (prefix.length > 0) out.push(prefix);
    if (prefix.length === max) return;
    for (const n of names) if (!prefix.includes(n)) grow([...prefix, n]);
  };
  grow([]);
  return out;
}

describe('the workflow space the validity rules leave', () => {
  it.each<[PlanLevel, readonly (readonly string[])[], number]>([
    ['top', TOP_LEVEL_WORKFLOWS, 18],
    ['sub', SUB_LEVEL_WORKFLOWS, 5],
  ])('lists exactly the valid %s-level workflows (%#): every listed one passes, every other sequence of executors fails', (level, listed, size) => {
    expect(listed).toHaveLength(size);
    const valid = sequences(EXECUTORS, EXECUTORS.length).filter((s) => validityProblems(s, level).length === 0).map((s) => s.join('+'));
    expect(valid.sort()).toEqual(listed.map((w) => w.join('+')).sort());
  });

  it('spells the listing out', () => {
    expect(TOP_LEVEL_WORKFLOWS.map(workflowKey)).toEqual([
      'AG', 'R+AG', 'DS+AG', 'QR+AG',
      'R+DS+AG', 'R+QR+AG', 'DS+R+AG', 'DS+QR+AG', 'QR+R+AG', 'QR+DS+AG',
      'R+DS+QR+AG', 'R+QR+DS+AG', 'DS+R+QR+AG', 'DS+QR+R+AG', 'QR+R+DS+AG', 'QR+DS+R+AG',
      'QDS', 'QDP',
    ]);
    expect(SUB_LEVEL_WORKFLOWS.map(workflowKey)).toEqual(['AG', 'R+AG', 'DS+AG', 'R+DS+AG', 'DS+R+AG']);
    expect(validityProblems(FALLBACK_WORKFLOW, 'top')).toEqual([]);
    expect(validityProblems(FALLBACK_WORKFLOW, 'sub')).toEqual([]);
  });

  it('names each broken rule of the authors’ is_valid_list', () => {
    expect(validityProblems([], 'top')).toEqual([{ kind: 'empty' }]);
    expect(validityProblems(['R', 'R', 'AG'], 'top')).toEqual([{ kind: 'repeated', name: 'R' }]);
    expect(validityProblems(['Search', 'AG'], 'top')).toEqual([{ kind: 'unknown', name: 'Search' }]);
    expect(validityProblems(['QDS', 'R', 'AG'], 'top')).toEqual([{ kind: 'decomposition-not-alone', name: 'QDS' }]);
    expect(validityProblems(['R', 'DS'], 'top')).toEqual([{ kind: 'no-final-AG' }]);
    expect(validityProblems(['QR', 'R', 'AG'], 'sub')).toEqual([{ kind: 'not-allowed-in-sub-turn', name: 'QR' }]);
    expect(validityProblems(['QDP'], 'sub')).toEqual([{ kind: 'not-allowed-in-sub-turn', name: 'QDP' }]);
    expect(validityProblems(['AS', 'AG'], 'top')).toEqual([{ kind: 'not-allowed-in-sub-turn', name: 'AS' }]);
  });
});

describe('parsePlan', () => {
  it('reads the planner’s text the way the authors’ planner writes it, and keeps what is not an executor', () => {
    expect(parsePlan('Workflow: QR,R,AG').names).toEqual(['QR', 'R', 'AG']);
    expect(parsePlan('qr, r, ds, ag').names).toEqual(['QR', 'R', 'DS', 'AG']);
    expect(parsePlan('I think the best plan is\nWorkflow: R -> AG').names).toEqual(['R', 'AG']);
    expect(parsePlan('Workflow: "QDS"').names).toEqual(['QDS']);
    expect(parsePlan('Workflow: Retrieve, then answer').names).toEqual(['Retrieve', 'then', 'answer']);
    expect(parsePlan('').names).toEqual([]);
  });
});
