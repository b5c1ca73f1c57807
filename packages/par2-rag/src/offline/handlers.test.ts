import { alreadySearched, offlineModel } from '@multihop/offline-model';
import { par2EscPrompt } from '../prompts';
import { offlineHandlers } from './index';

// A MuSiQue train question (musique/train-100.json) with its first hop's supporting paragraph only.
const question = 'When did the state where Pocahontas Mounds is located become part of the United States?';
const mounds = {
  id: 'p1',
  title: 'Pocahontas Mounds',
  text: 'Pocahontas Mounds (22 HI 500) is an archaeological site from the Plaquemine Mississippian culture in Hinds County, Mississippi, dating from 800 to 1300 CE.',
};

describe('the offline ESC', () => {
  const model = offlineModel({ handlers: offlineHandlers });
  const esc = async (previousQueries: string[]) =>
    (await model.call({ prompt: par2EscPrompt, vars: { question, response: 'Mississippi', passages: [mounds], previousQueries } })).output;

  it('asks for what is missing, never for a search already run, and stops when only repeats are left', async () => {
    const issued = [question];
    const proposed: string[] = [];
    let verdict = await esc(issued);
    for (let round = 0; round < 10 && verdict.decision === 'CONTINUE'; round++) {
      expect(alreadySearched(verdict.query, issued)).toBe(false);
      proposed.push(verdict.query);
      issued.push(verdict.query);
      verdict = await esc(issued);
    }
    expect(proposed.length).toBeGreaterThan(1);
    expect(new Set(proposed).size).toBe(proposed.length);
    expect(verdict.decision).toBe('STOP');
    expect(verdict.rationale).toMatch(/every search for it has run/);
  });

  it('asks first for the hop the evidence leaves open, with the words of the next hop', async () => {
    const first = await esc([question]);
    expect(first.decision).toBe('CONTINUE');
    expect(first.rationale).toMatch(/hop 1/);
    expect(first.query).toMatch(/become part united states/);
  });
});
