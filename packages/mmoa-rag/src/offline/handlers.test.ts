import { hotpotTrainSample } from '@multihop/testing';
import { rewriteOffline, selectOffline } from './handlers';

// Tuned on HotpotQA train questions (../shared/datasets/hotpotqa/train-100.json); these are from it.
describe('offline Query Rewriter', () => {
  it('splits a comparison into one search per option', () => {
    // A comparison question of hotpotqa/train-100.json.
    expect(rewriteOffline('Which band was formed first The Exies or Circus Diablo ?', 4)).toEqual(['Exies band formed first', 'Circus Diablo band formed first']);
  });

  it('keeps a one-hop question whole and never writes more than the limit', () => {
    const question = 'When was the Eiffel Tower built?';
    expect(rewriteOffline(question, 4)).toEqual([question]);
    expect(rewriteOffline('Is A or B or C or D or E older?', 4).length).toBeLessThanOrEqual(4);
  });
});

describe('offline Selector', () => {
  it('picks the supporting documents of a real train question among its ten paragraphs, in ID order', () => {
    // The first question of hotpotqa/train-100.json (5a77ec115542992a6e59dff7).
    const [sample] = hotpotTrainSample(1);
    const docs = sample!.passages.map((p) => ({ id: p.id, title: p.title, text: p.text }));
    const picked = selectOffline(sample!.question.text, docs);
    expect(picked.length).toBeGreaterThan(0);
    expect(picked.length).toBeLessThanOrEqual(4);
    expect([...picked].sort((a, b) => a - b)).toEqual(picked);
    const gold = new Set(sample!.question.supportingIds);
    expect(picked.some((i) => gold.has(docs[i]!.id))).toBe(true);
  });
});
