import { z } from 'zod';
import { createModel } from '../model/createModel';
import { createScriptedProvider } from '../model/scripted';
import type { ChatMessage, PromptTemplate, Provider } from '../model/port';
import { candidateModel, ROLLOUT_TEMPERATURE } from './Trainable';

const schema = z.object({ y: z.string() });
const prompt = (role: string): PromptTemplate<z.infer<typeof schema>> => ({ id: `t.${role}`, role, version: '1', schema, render: (vars): ChatMessage[] => [{ role: 'user', content: `Say ${String(vars['x'])}` }] });

describe('candidateModel: the port a rollout candidate calls', () => {
  const seen: Array<[string, number | undefined]> = [];
  const scripted = createScriptedProvider({ replies: { policy: ['{"y":"a"}'], executor: ['{"y":"b"}'] }, repeatLast: true });
  const provider: Provider = { id: 'log', generate: (r) => (seen.push([r.role, r.temperature]), scripted.generate(r)) };
  const model = createModel({ provider });
  beforeEach(() => (seen.length = 0));

  it('leaves candidate 0 at the role’s configured temperature', async () => {
    expect(candidateModel(model, 0, { temperature: 0.8 })).toBe(model);
  });

  it('samples the trained roles of candidates 1…G−1 at the group’s temperature, core’s default when none is given', async () => {
    const one = candidateModel(model, 1, { temperature: 0.8, roles: ['policy'] });
    await one.call({ prompt: prompt('policy'), vars: { x: 1 } });
    await one.call({ prompt: prompt('executor'), vars: { x: 1 } });
    await candidateModel(model, 2).call({ prompt: prompt('executor'), vars: { x: 1 } });
    expect(seen).toEqual([['policy', 0.8], ['executor', undefined], ['executor', ROLLOUT_TEMPERATURE]]);
    expect(one.modelFor('policy')).toBe(model.modelFor('policy'));
  });

  it('samples only the prompts named, when it is given prompts', async () => {
    const one = candidateModel(model, 1, { temperature: 0.8, roles: ['policy'], prompts: ['t.policy'] });
    await one.call({ prompt: prompt('policy'), vars: { x: 1 } });
    await one.call({ prompt: { ...prompt('policy'), id: 't.policy-repair' }, vars: { x: 1 } });
    expect(seen).toEqual([['policy', 0.8], ['policy', undefined]]);
  });

  it('keeps a temperature the call sets itself', async () => {
    await candidateModel(model, 1, { temperature: 0.8 }).call({ prompt: prompt('policy'), vars: { x: 1 }, temperature: 0.2 });
    expect(seen).toEqual([['policy', 0.2]]);
  });
});
