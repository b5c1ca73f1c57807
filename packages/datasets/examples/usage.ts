import assert from 'node:assert/strict';
import { loadDataset, sentenceId } from '@multihop/datasets';

async function main(): Promise<void> {
  // Named datasets resolve in MULTIHOP_DATASETS_DIR (or ../shared/datasets found walking up from here).
  const hotpot = await loadDataset('hotpotqa-dev'); // or any path; the layout is detected
  const q = hotpot.questions[0]!;
  console.log(q.text, '→', q.answer);
  console.log('gold passages:', q.supportingIds); // e.g. "Shirley Temple#1a2b3c4d"
  console.log('its own paragraphs (closed setting):', hotpot.contexts[q.id]!.length);
  console.log('open pool:', hotpot.passages.length, 'passages');

  const wiki = await loadDataset('2wiki-dev', { limit: 50 });
  const fact = wiki.questions[0]!.supportingSentences![0]!;
  console.log('a gold sentence chunk id:', sentenceId(fact.passageId, fact.sentence));

  assert.equal(hotpot.questions.length, 500);
  for (const gold of q.supportingIds) assert.ok(hotpot.contexts[q.id]!.includes(gold), `${gold} is one of the question's own paragraphs`);
  assert.equal(wiki.questions.length, 50);
  assert.equal(sentenceId(fact.passageId, fact.sentence), `${fact.passageId}:s${fact.sentence}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
