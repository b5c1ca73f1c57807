import { alreadySearched, offlineModel } from '@multihop/offline-model';
import { par2EscPrompt, par2WriterPrompt } from '../prompts';
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
    (await model.call({ prompt: par2EscPrompt, vars: { question, response: 'Mississippi', reasoning: '', passages: [mounds], previousQueries } })).output;

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

// HotpotQA train 5a8718c25542991e771816c7: the film is read from the town's passage (hop 1); who
// directed it is in the film's own passage (hop 2), which the chain has to retrieve.
describe('the offline writer and ESC on a bridge question', () => {
  const model = offlineModel({ handlers: offlineHandlers });
  const bridgeQuestion = 'Who directed the film that was shot in or around Leland, North Carolina in 1986';
  const leland = {
    id: 'leland',
    title: 'Leland, North Carolina',
    text: 'Leland is a town in Brunswick County, North Carolina, United States. The population was 13,527 at the 2010 census, up from 1,938 at the 2000 census. It is part of the Myrtle Beach Metropolitan Statistical Area. A number of movies, such as "Maximum Overdrive" (1986), "Domestic Disturbance" (2001), and "We\'re the Millers" (2013) have been shot in or around Leland.',
  };
  const film = {
    id: 'film',
    title: 'Maximum Overdrive',
    text: 'Maximum Overdrive is a 1986 American science fiction horror comedy film written and directed by Stephen King. The film stars Emilio Estevez, Pat Hingle, Laura Harrington, and Yeardley Smith.',
  };
  const write = async (passages: unknown[]) => (await model.call({ prompt: par2WriterPrompt, vars: { question: bridgeQuestion, passages } })).output;

  it('asks for the bridge entity’s own passage when the evidence stops at the bridge', async () => {
    const draft = await write([leland]);
    const { output } = await model.call({ prompt: par2EscPrompt, vars: { question: bridgeQuestion, response: draft.answer, reasoning: draft.reasoning, passages: [leland], previousQueries: [bridgeQuestion] } });
    expect(output.decision).toBe('CONTINUE');
    expect(output.rationale).toMatch(/leads to Maximum Overdrive, which no passage is about/);
    expect(output.query).toMatch(/^Maximum Overdrive /);
  });

  it('answers hop by hop once the chain brought that passage, so the hop changes the response', async () => {
    const before = await write([leland]);
    const after = await write([leland, film]);
    expect(before.answer).not.toBe('Stephen King');
    expect(after.answer).toBe('Stephen King');
    expect(after.reasoning).toMatch(/^Hop 1 .*"Leland, North Carolina" states: .* Hop 2 .*"Maximum Overdrive" states: /);
    const { output } = await model.call({ prompt: par2EscPrompt, vars: { question: bridgeQuestion, response: after.answer, reasoning: after.reasoning, passages: [leland, film], previousQueries: [bridgeQuestion, 'Maximum Overdrive'] } });
    expect(output.decision).toBe('STOP');
  });
});
