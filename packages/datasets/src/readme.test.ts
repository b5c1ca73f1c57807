// The README's usage example, run as a test so it cannot rot.
import { resolve } from 'node:path';

process.env.MULTIHOP_DATASETS_DIR ??= resolve(__dirname, '../../../../shared/datasets');

it('runs the README example', async () => {
  // --- README example start
  const { loadDataset, sentenceId } = await import('@multihop/datasets');

  const hotpot = await loadDataset('hotpotqa-dev'); // or any path; the layout is detected
  const q = hotpot.questions[0]!;
  console.log(q.text, '→', q.answer);
  console.log('gold passages:', q.supportingIds); // e.g. "Shirley Temple#1a2b3c4d"
  console.log('its own paragraphs (closed setting):', hotpot.contexts[q.id]!.length);
  console.log('open pool:', hotpot.passages.length, 'passages');

  const wiki = await loadDataset('2wiki-dev', { limit: 50 });
  const fact = wiki.questions[0]!.supportingSentences![0]!;
  console.log('a gold sentence chunk id:', sentenceId(fact.passageId, fact.sentence));
  // --- README example end

  expect(hotpot.questions).toHaveLength(500);
  expect(hotpot.contexts[q.id]).toEqual(expect.arrayContaining(q.supportingIds));
  expect(wiki.questions).toHaveLength(50);
  expect(sentenceId(fact.passageId, fact.sentence)).toBe(`${fact.passageId}:s${fact.sentence}`);
});
