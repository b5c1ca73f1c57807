import assert from 'node:assert/strict';
import { conformanceSample, overlapRetriever, promptVarsFor } from '@multihop/conformance';

async function main(): Promise<void> {
  // Real HotpotQA train questions, each with its own ten paragraphs, shipped with the package.
  const sample = conformanceSample(5);
  const [entry] = sample;
  assert.equal(entry!.question.text, 'If Gallu is a demon Lilu is what?');
  assert.equal(entry!.question.answer, 'a spirit');
  assert.equal(entry!.passages.length, 10);
  assert.equal(entry!.question.supportingIds.length, 2);

  // The search the suite's runs use: the question's own paragraphs, ranked by shared words.
  const retriever = overlapRetriever(entry!.passages);
  const hits = await retriever.search(entry!.question.text, { k: 3 });
  assert.deepEqual(hits.map((h) => h.rank), [1, 2, 3]);
  assert.ok(hits.every((h) => h.id.startsWith(`${entry!.question.id}:`)));

  // The prompt variables every prompt of a method is answered with (a method adds its own
  // through the suite's `promptVars` option).
  const vars = promptVarsFor(entry!);
  assert.equal(vars['question'], entry!.question.text);
  assert.equal(vars['gold'], 'a spirit');

  console.log(`${sample.length} bundled questions; top passage for "${entry!.question.text}": ${hits[0]!.title}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
