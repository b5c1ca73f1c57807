import { z } from 'zod';
import { MultihopError } from '../errors';
import type { Workflow } from '../workflow';
import { checkOptionNames, defineMethod, MethodCatalog, withDefaults, type WorkflowEntry } from './defineMethod';

const prompt = (id: string) => ({ id, role: id, version: '1', schema: z.object({}), render: () => [] });
const entry = (id: string): WorkflowEntry => ({ id, title: id, engine: 'plain', variant: 'full', create: () => ({ id }) as unknown as Workflow });

describe('method manifests', () => {
  it('accepts a well-formed manifest and freezes it', () => {
    const manifest = defineMethod({ id: 'demo-method', family: 'Demo', paper: 'p', workflows: [entry('demo')], prompts: [prompt('demo.answer')] });
    expect(Object.isFrozen(manifest)).toBe(true);
    expect(manifest.workflows.map((w) => w.id)).toEqual(['demo']);
  });

  it('names what is wrong: the id, an empty workflow list, a repeated workflow or prompt id', () => {
    const base = { family: 'Demo', paper: 'p', workflows: [entry('demo')], prompts: [] };
    expect(() => defineMethod({ ...base, id: 'Demo_Method' })).toThrow(/"Demo_Method": id must be lower-case letters, digits and dashes/);
    expect(() => defineMethod({ ...base, id: 'demo', workflows: [] })).toThrow(/"demo": lists no workflow/);
    expect(() => defineMethod({ ...base, id: 'demo', workflows: [entry('a'), entry('a')] })).toThrow(/workflow id "a" appears twice/);
    expect(() => defineMethod({ ...base, id: 'demo', prompts: [prompt('x'), prompt('x')] })).toThrow(/prompt id "x" appears twice/);
  });

  it('keeps a node table whose prompts are the manifest’s own, frozen', () => {
    const manifest = defineMethod({
      id: 'demo-method',
      family: 'Demo',
      paper: 'p',
      workflows: [entry('demo')],
      prompts: [prompt('demo.plan'), prompt('demo.answer')],
      nodes: { plan: { agent: 'Planner', description: 'splits the question', prompts: ['demo.plan'] }, route: { description: 'picks the next step' } },
    });
    expect(manifest.nodes?.['plan']).toEqual({ agent: 'Planner', description: 'splits the question', prompts: ['demo.plan'] });
    expect(Object.isFrozen(manifest.nodes)).toBe(true);
    expect(Object.isFrozen(manifest.nodes?.['plan']?.prompts)).toBe(true);
    expect('nodes' in defineMethod({ id: 'bare', family: 'Demo', paper: 'p', workflows: [entry('bare')], prompts: [] })).toBe(false);
  });

  it('refuses a node calling a prompt the manifest does not list, or a node without a description, naming the manifest and the node', () => {
    const base = { id: 'demo', family: 'Demo', paper: 'p', workflows: [entry('demo')], prompts: [prompt('demo.answer')] };
    const wrong = () => defineMethod({ ...base, nodes: { answer: { description: 'answers', prompts: ['demo.answer', 'demo.typo'] } } });
    expect(wrong).toThrow(MultihopError);
    expect(wrong).toThrow(/method manifest "demo": node "answer" calls prompt "demo.typo", which is not among the manifest's prompts/);
    try {
      wrong();
    } catch (error) {
      expect((error as MultihopError).code).toBe('MANIFEST');
    }
    expect(() => defineMethod({ ...base, nodes: { answer: { description: ' ' } } })).toThrow(/method manifest "demo": node "answer" has no description/);
  });

  it('refuses two methods offering one workflow id, and lists every prompt once', () => {
    // One prompt (the judge's, say) that several methods list.
    const judge = prompt('judge');
    const a = defineMethod({ id: 'a', family: 'A', paper: 'p', workflows: [entry('shared')], prompts: [judge] });
    const b = defineMethod({ id: 'b', family: 'B', paper: 'p', workflows: [entry('shared')], prompts: [judge] });
    expect(() => new MethodCatalog([a, b])).toThrow(/workflow id "shared" is offered by both a and b/);
    const c = defineMethod({ id: 'c', family: 'C', paper: 'p', workflows: [entry('other')], prompts: [judge] });
    const catalog = new MethodCatalog([a, c]);
    expect(catalog.prompts.map((p) => p.id)).toEqual(['judge']);
    expect(catalog.find('other')?.method.id).toBe('c');
    expect(catalog.get('other').entry.id).toBe('other');
    // An unknown id names the nearest ones and every known one.
    expect(() => catalog.get('othr')).toThrow('unknown workflow "othr" (did you mean "other"?); known: shared, other');
    expect(() => catalog.get('zzzzzzzz')).toThrow('unknown workflow "zzzzzzzz"; known: shared, other');
    expect(catalog.trainable).toEqual([]);
  });

  it('refuses two different prompts under one id from two methods, naming both', () => {
    const a = defineMethod({ id: 'a', family: 'A', paper: 'p', workflows: [entry('one')], prompts: [prompt('shared.answer')] });
    const b = defineMethod({ id: 'b', family: 'B', paper: 'p', workflows: [entry('two')], prompts: [{ ...prompt('shared.answer'), role: 'b-answerer' }] });
    expect(() => new MethodCatalog([a, b])).toThrow('prompt id "shared.answer" is offered by both a and b as two different prompts (role shared.answer, version 1; role b-answerer, version 1)');
    const newer = defineMethod({ id: 'c', family: 'C', paper: 'p', workflows: [entry('three')], prompts: [{ ...prompt('shared.answer'), version: '2' }] });
    expect(() => new MethodCatalog([a, newer])).toThrow(/prompt id "shared.answer" is offered by both a and c/);
    const retext = defineMethod({ id: 'd', family: 'D', paper: 'p', workflows: [entry('four')], prompts: [Object.assign(prompt('shared.answer'), { template: 'Answer: {{question}}' })] });
    expect(() => new MethodCatalog([a, retext])).toThrow(/prompt id "shared.answer" is offered by both a and d/);
    // Written by hand, with no text to compare: two objects are two prompts; one object listed twice is one.
    const byHand = prompt('hand.answer');
    const e = defineMethod({ id: 'e', family: 'E', paper: 'p', workflows: [entry('five')], prompts: [byHand] });
    const f = defineMethod({ id: 'f', family: 'F', paper: 'p', workflows: [entry('six')], prompts: [prompt('hand.answer')] });
    expect(() => new MethodCatalog([e, f])).toThrow(/prompt id "hand.answer" is offered by both e and f/);
    const g = defineMethod({ id: 'g', family: 'G', paper: 'p', workflows: [entry('seven')], prompts: [byHand] });
    expect(new MethodCatalog([e, g]).prompts.map((p) => p.id)).toEqual(['hand.answer']);
  });

  it('refuses one role used by two methods’ different prompts, naming both and the role to use; one method may use a role for several prompts', () => {
    const acme = defineMethod({ id: 'acme', family: 'A', paper: 'p', workflows: [entry('acme')], prompts: [{ ...prompt('acme.answer'), role: 'direct' }] });
    const baselines = defineMethod({ id: 'baselines', family: 'B', paper: 'p', workflows: [entry('direct')], prompts: [{ ...prompt('baseline.direct'), role: 'direct' }] });
    expect(() => new MethodCatalog([baselines, acme])).toThrow(
      'role "direct" is used by both baselines (prompt baseline.direct) and acme (prompt acme.answer); the offline model\'s handlers and per-role models are chosen by role, so each method needs roles of its own: name it "acme-direct"',
    );
    // A planner and its sub-question planner: two prompts of one method, one role.
    const planner = defineMethod({ id: 'plan', family: 'P', paper: 'p', workflows: [entry('plan')], prompts: [{ ...prompt('plan.top'), role: 'plan-planner' }, { ...prompt('plan.sub'), role: 'plan-planner' }] });
    expect(new MethodCatalog([baselines, planner]).prompts.map((p) => p.role)).toEqual(['direct', 'plan-planner', 'plan-planner']);
  });

  it('refuses two methods with one id, and a setting without a default, naming the method, the workflow and the setting', () => {
    const a = defineMethod({ id: 'a', family: 'A', paper: 'p', workflows: [entry('one')], prompts: [] });
    const twin = defineMethod({ id: 'a', family: 'A2', paper: 'p', workflows: [entry('two')], prompts: [] });
    expect(() => new MethodCatalog([a, twin])).toThrow('method id "a" is declared by two method packages; each method needs its own id');
    const settings = z.object({ topK: z.number().int().default(5), maxFollowUps: z.number().int() });
    const noDefault = defineMethod({ id: 'self-ask', family: 'S', paper: 'p', workflows: [{ ...entry('self-ask'), settings }], prompts: [] });
    expect(() => new MethodCatalog([a, noDefault])).toThrow(/^method self-ask, workflow self-ask: setting maxFollowUps has no default \(.+\); every setting in a workflow's settings schema needs one/);
    const withDefault = defineMethod({ id: 'self-ask', family: 'S', paper: 'p', workflows: [{ ...entry('self-ask'), settings: settings.extend({ maxFollowUps: z.number().int().default(3) }) }], prompts: [] });
    expect(new MethodCatalog([a, withDefault]).find('self-ask')?.method.id).toBe('self-ask');
  });

  it('fills settings from the paper’s defaults, keeping a default where an option is undefined', () => {
    expect(withDefaults({ topK: 5, maxRewrites: 2 }, { topK: 3, maxRewrites: undefined })).toEqual({ topK: 3, maxRewrites: 2 });
    expect(withDefaults({ topK: 5 })).toEqual({ topK: 5 });
  });

  it("holds the settings to the workflow's schema when given one, naming the workflow, the setting and its value", () => {
    const schema = z.object({ topK: z.number().int().min(1), maxRewrites: z.number().int().min(0) });
    const check = { workflow: 'demo', schema };
    expect(withDefaults({ topK: 5, maxRewrites: 2 }, { maxRewrites: 0 }, check)).toEqual({ topK: 5, maxRewrites: 0 });
    expect(() => withDefaults({ topK: 5, maxRewrites: 2 }, { maxRewrites: -1 }, check)).toThrow('demo: setting maxRewrites = -1 is not valid: Too small: expected number to be >=0');
    expect(() => withDefaults({ topK: 5, maxRewrites: 2 }, { topK: 'x' as unknown as number }, check)).toThrow(/^demo: setting topK = "x" is not valid: /);
    // Keys the schema does not list (a variant's omitted settings) are let through.
    expect(withDefaults({ topK: 5, maxRewrites: 2, extra: 1 }, {}, { workflow: 'demo', schema: schema.omit({ maxRewrites: true }) })).toEqual({ topK: 5, maxRewrites: 2, extra: 1 });
  });

  it('refuses an option given that is none of the schema\'s settings nor the factory\'s other options, naming the nearest and what it takes', () => {
    const schema = z.object({ topK: z.number().int().min(1), maxRewrites: z.number().int().min(0) });
    const check = { workflow: 'demo', schema, options: ['reranker'] };
    expect(() => withDefaults({ topK: 5, maxRewrites: 2 }, { maxRewrite: 1 } as object, check)).toThrow('demo: no option "maxRewrite" (did you mean "maxRewrites"?); it takes settings topK, maxRewrites; options reranker');
    // Another variant's setting: the defaults hold it, but this variant's schema does not.
    const variant = { workflow: 'demo-lite', schema: schema.omit({ maxRewrites: true }) };
    expect(() => withDefaults({ topK: 5, maxRewrites: 2 }, { maxRewrites: 1 }, variant)).toThrow('demo-lite: no option "maxRewrites"; it takes settings topK');
    // Given as undefined (a flag not set) it is not an option given.
    expect(withDefaults({ topK: 5, maxRewrites: 2 }, { maxRewrites: undefined }, variant)).toEqual({ topK: 5, maxRewrites: 2 });
    expect(() => checkOptionNames('direct', { k: 5 }, [])).toThrow('direct: no option "k"; it takes no settings');
  });
});
