import { manifest } from './manifest';
import { OPERA_DEFAULTS } from './settings';
import type { OperaWorkflow } from './workflows';

const entry = (id: string) => manifest.workflows.find((w) => w.id === id)!;

describe('OPERA settings schemas', () => {
  it('parse {} to OPERA_DEFAULTS, less what a variant’s machine does not use', () => {
    expect(entry('opera').settings!.parse({})).toEqual(OPERA_DEFAULTS);
    const { planRepairs: _p, ...noPlan } = OPERA_DEFAULTS;
    expect(entry('opera-no-plan').settings!.parse({})).toEqual(noPlan);
    const { maxRewrites: _r, ...noRewrite } = OPERA_DEFAULTS;
    expect(entry('opera-no-rewrite').settings!.parse({})).toEqual(noRewrite);
  });

  it('accept only the two synthesis forms and counts in range', () => {
    const schema = entry('opera').settings!;
    expect(schema.safeParse({ synthesis: 'llm' }).success).toBe(true);
    expect(schema.safeParse({ synthesis: 'vote' }).success).toBe(false);
    expect(schema.safeParse({ maxRewrites: 0 }).success).toBe(true);
    expect(schema.safeParse({ topK: 0 }).success).toBe(false);
  });

  it('take effect in the machine the entry builds', () => {
    const workflow = entry('opera').create(entry('opera').settings!.parse({ maxSteps: 3, synthesis: 'llm' })) as OperaWorkflow;
    expect(workflow.settings).toEqual({ ...OPERA_DEFAULTS, maxSteps: 3, synthesis: 'llm' });
    expect(workflow.chart().nodes.map((n) => n.id)).toContain('synthesize');
    const paper = entry('opera').create(entry('opera').settings!.parse({})) as OperaWorkflow;
    expect(paper.chart().nodes.map((n) => n.id)).toContain('lastStep');
    expect(paper.chart().nodes.map((n) => n.id)).not.toContain('synthesize');
  });
});
