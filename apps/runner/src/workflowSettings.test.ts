import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, MethodCatalog, defineMethod, type WorkflowEntry } from '@multihop/core';
import { z } from 'zod';
import { checkTargets, configFileSettings, configureWorkflow, parseSetFlags, parseValueList } from './workflowSettings';

// A workflow entry as a method's manifest gives it: a settings schema with the paper's defaults.
const created: Array<Record<string, unknown>> = [];
const entry: WorkflowEntry = {
  id: 'loop-rag',
  title: 'loop',
  engine: 'plain',
  variant: 'full',
  settings: z.object({ hopBudget: z.number().int().min(1).default(5), synthesis: z.enum(['llm', 'last-step']).default('llm') }),
  create: (options) => {
    created.push(options ?? {});
    throw new Error('not built in this test');
  },
};
const bare: WorkflowEntry = { ...entry, id: 'bare', settings: undefined };
const catalog = new MethodCatalog([defineMethod({ id: 'loop', family: 'x', paper: 'p', workflows: [entry, bare], prompts: [] })]);

describe('workflow settings from --set and the config file', () => {
  it('reads numbers and booleans as JSON and anything else as text', () => {
    expect(parseSetFlags(['loop-rag.hopBudget=7', 'loop.synthesis=last-step'])).toEqual([
      { target: 'loop-rag', key: 'hopBudget', value: 7, where: '--set loop-rag.hopBudget=7' },
      { target: 'loop', key: 'synthesis', value: 'last-step', where: '--set loop.synthesis=last-step' },
    ]);
    expect(parseValueList('3, 5,7', '--param hopBudget=3, 5,7')).toEqual([3, 5, 7]);
    expect(() => parseValueList('3,,7', '--param x')).toThrow('--param x: an empty value in "3,,7"');
    // A workflow id with `:` and `+` (MAO-ARAG's fixed workflows) is a target like any other.
    expect(parseSetFlags(['mao-arag-fixed:R+AG.retrievalK=3'])).toEqual([{ target: 'mao-arag-fixed:R+AG', key: 'retrievalK', value: 3, where: '--set mao-arag-fixed:R+AG.retrievalK=3' }]);
    expect(parseSetFlags(['loop.synthesis=a.b=c'])).toEqual([{ target: 'loop', key: 'synthesis', value: 'a.b=c', where: '--set loop.synthesis=a.b=c' }]);
    expect(() => parseSetFlags(['hopBudget=7'])).toThrow(/--set hopBudget=7: expected <workflow or method>\.<setting>=<value>/);
    expect(() => parseSetFlags(['loop.hopBudget='])).toThrow('--set loop.hopBudget=: no value after "="');
  });

  it('fills the paper defaults, lets the workflow’s own setting win over the method’s, and keeps the overrides apart', () => {
    const configured = configureWorkflow(entry, 'loop', parseSetFlags(['loop-rag.hopBudget=7', 'loop.hopBudget=3', 'loop.synthesis=last-step']));
    expect(configured.settings).toEqual({ hopBudget: 7, synthesis: 'last-step' });
    expect(configured.overrides).toEqual({ hopBudget: 7, synthesis: 'last-step' });
    expect(configureWorkflow(entry, 'loop', [])).toMatchObject({ settings: { hopBudget: 5, synthesis: 'llm' }, overrides: {} });
  });

  it('refuses a value the workflow’s schema rejects, an unknown setting, and settings for a workflow with none, naming the flag', () => {
    expect(() => configureWorkflow(entry, 'loop', parseSetFlags(['loop-rag.hopBudget=0']))).toThrow(/--set loop-rag\.hopBudget=0: loop-rag\.hopBudget = 0 is not valid: .*>=1/);
    // A number too large for a double is shown as what it became, not as JSON's null.
    expect(() => configureWorkflow(entry, 'loop', parseSetFlags(['loop-rag.hopBudget=1e400']))).toThrow(/--set loop-rag\.hopBudget=1e400: loop-rag\.hopBudget = Infinity is not valid/);
    expect(() => configureWorkflow(entry, 'loop', parseSetFlags(['loop-rag.synthesis=sum']))).toThrow(/loop-rag\.synthesis = "sum" is not valid/);
    expect(() => configureWorkflow(entry, 'loop', parseSetFlags(['loop-rag.hopbudget=7']))).toThrow(
      '--set loop-rag.hopbudget=7: loop-rag has no setting "hopbudget" (did you mean "hopBudget"?); its settings: hopBudget, synthesis',
    );
    expect(() => configureWorkflow(bare, 'loop', parseSetFlags(['bare.k=1']))).toThrow('--set bare.k=1: workflow bare declares no settings');
    expect(() => configureWorkflow(entry, 'loop', parseSetFlags(['loop-rag.hopBudget=7.5']))).toThrow(ConfigError);
  });

  it('applies a method-wide setting only to the method’s workflows that have it, and refuses one that reaches none', () => {
    // `loop` is the method; `bare` declares no settings, so loop.hopBudget skips it.
    expect(configureWorkflow(bare, 'loop', parseSetFlags(['loop.hopBudget=2']))).toMatchObject({ settings: {}, overrides: {} });
    expect(configureWorkflow(entry, 'loop', parseSetFlags(['loop.hopBudget=2'])).settings['hopBudget']).toBe(2);
    expect(() => checkTargets(parseSetFlags(['loop.hopbudget=2']), catalog, [{ entry, methodId: 'loop' }, { entry: bare, methodId: 'loop' }])).toThrow(
      '--set loop.hopbudget=2: no workflow of loop that this command runs has a setting "hopbudget" (loop-rag: hopBudget, synthesis; bare: none)',
    );
  });

  it('refuses a --set for an unknown id or a workflow this command does not run', () => {
    const running = [{ entry, methodId: 'loop' }];
    expect(() => checkTargets(parseSetFlags(['nope.k=1']), catalog, running)).toThrow(/"nope" is neither a workflow nor a method; workflows: loop-rag, bare/);
    expect(() => checkTargets(parseSetFlags(['bare.k=1']), catalog, running)).toThrow('--set bare.k=1: bare is not among the workflows this command runs (loop-rag)');
    expect(() => checkTargets(parseSetFlags(['loop.hopBudget=2', 'loop-rag.hopBudget=2']), catalog, running)).not.toThrow();
  });

  it('reads the config file’s settings, naming the file and field in errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-settings-'));
    const file = join(dir, 'multihop.config.json');
    writeFileSync(file, JSON.stringify({ model: 'offline', settings: { 'loop-rag': { hopBudget: 9 } } }));
    const fromFile = configFileSettings({ MULTIHOP_CONFIG: file });
    expect(fromFile).toEqual([{ target: 'loop-rag', key: 'hopBudget', value: 9, where: `${file}: settings.loop-rag.hopBudget` }]);
    // --set comes after the file, so it wins.
    expect(configureWorkflow(entry, 'loop', [...fromFile, ...parseSetFlags(['loop-rag.hopBudget=4'])]).settings['hopBudget']).toBe(4);
    writeFileSync(file, JSON.stringify({ settings: { 'loop-rag': { hopBudget: 0 } } }));
    expect(() => configureWorkflow(entry, 'loop', configFileSettings({ MULTIHOP_CONFIG: file }))).toThrow(`${file}: settings.loop-rag.hopBudget: loop-rag.hopBudget = 0 is not valid`);
    writeFileSync(file, JSON.stringify({ settings: { 'loop-rag': { hopBudget: [1] } } }));
    expect(() => configFileSettings({ MULTIHOP_CONFIG: file })).toThrow(`${file}: field settings.loop-rag.hopBudget`);
    expect(created).toEqual([]);
  });
});
