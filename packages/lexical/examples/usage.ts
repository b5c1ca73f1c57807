import assert from 'node:assert/strict';
import { decomposeQuestion, LexicalReranker, splitSentences, terms } from '@multihop/lexical';

async function main(): Promise<void> {
  // One tokenizer, stemmer and stop-word list for the whole workspace.
  assert.deepEqual(terms('The films were directed by her'), ['film', 'direct']);

  // Sentences of Wikipedia prose, initials and abbreviations kept inside.
  assert.deepEqual(splitSentences('J. R. R. Tolkien was born in 1892. He wrote books.'), ['J. R. R. Tolkien was born in 1892.', 'He wrote books.']);

  // A nested question as a chain of look-ups with placeholders (OPERA's plan shape).
  const steps = decomposeQuestion('What is the seat of the county where Van Hook Township is located?');
  assert.deepEqual(steps, ['What is the county where Van Hook Township is located?', 'What is the seat of [county from step 1]?']);

  // An offline reranker for any retriever's hits: query terms weighted by rarity, titles double.
  const hits = [
    { id: 'a', title: 'Stanley, North Dakota', text: 'Stanley is a city in Mountrail County.', rank: 1, score: 1 },
    { id: 'b', title: 'Mountrail County Courthouse', text: 'The courthouse in Stanley serves Mountrail County as its seat.', rank: 2, score: 1 },
  ];
  const reranked = await new LexicalReranker().rerank('Mountrail County seat courthouse', hits, { k: 1 });
  console.log(steps, reranked.map((h) => h.title));
  assert.equal(reranked[0]?.id, 'b');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
