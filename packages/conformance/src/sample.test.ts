import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sharedDatasetsDir } from '@multihop/testing';
import { conformanceSample, SAMPLE_FILE } from './sample';

describe('the bundled HotpotQA train sample', () => {
  it('is the first five records of the shared HotpotQA train file, unchanged', () => {
    const shared = JSON.parse(readFileSync(resolve(sharedDatasetsDir(), 'hotpotqa/train-100.json'), 'utf8')) as unknown[];
    expect(JSON.parse(readFileSync(SAMPLE_FILE, 'utf8'))).toEqual(shared.slice(0, 5));
  });

  it('gives each question its ten paragraphs and marks the ones its supporting facts name', () => {
    const sample = conformanceSample();
    expect(sample).toHaveLength(5);
    // Train question 5a77ec115542992a6e59dff7: "If Gallu is a demon Lilu is what?", supported by its paragraphs on Alû and Lilu (mythology).
    const [first] = sample;
    expect(first!.question).toMatchObject({ id: '5a77ec115542992a6e59dff7', text: 'If Gallu is a demon Lilu is what?', answer: 'a spirit' });
    expect(first!.passages).toHaveLength(10);
    const supporting = first!.passages.filter((p) => first!.question.supportingIds.includes(p.id)).map((p) => p.title);
    expect(supporting.sort()).toEqual(['Alû', 'Lilu (mythology)']);
    for (const { question, passages } of sample) {
      expect(question.supportingIds).toHaveLength(2);
      for (const p of passages) expect(p.id.startsWith(`${question.id}:`) && p.text.length > 0).toBe(true);
    }
  });

  it('refuses a count it cannot give, naming the file and the range', () => {
    expect(() => conformanceSample(6)).toThrow(/has 5 questions; ask for 1 to 5/);
    expect(() => conformanceSample(0)).toThrow(RangeError);
  });
});
