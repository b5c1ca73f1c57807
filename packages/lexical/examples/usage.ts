import assert from 'node:assert/strict';
import { decomposeQuestion, LexicalReranker, splitSentences, terms } from '@multihop/lexical';

async function main(): Promise<void> {
  // One tokenizer, stemmer and stop-word list for the whole workspace.
  assert.deepEqual(terms('The films were directed by her'), ['film', 'direct']);

  // Sentences of Wikipedia prose, initials and abbreviations kept inside.
  assert.deepEqual(splitSentences('J. R. R. Tolkien was born in 1892. He wrote books.'), ['J. R. R. Tolkien was born in 1892.', 'He wrote books.']);

  // A nested question (MuSiQue train 2hop__131318_49700) as a chain of look-ups with placeholders (OPERA's plan shape).
  const steps = decomposeQuestion('What is the population of the state where Dodge City Regional Airport is located?');
  assert.deepEqual(steps, ['What is the state where Dodge City Regional Airport is located?', 'What is the population of [state from step 1]?']);

  // An offline reranker for any retriever's hits: query terms weighted by rarity, titles double.
  const hits = [
    { id: 'a', title: 'Fairfield, Iowa', text: 'Fairfield is a city in Jefferson County.', rank: 1, score: 1 },
    { id: 'b', title: 'Jefferson County Courthouse', text: 'The courthouse in Fairfield serves Jefferson County as its seat.', rank: 2, score: 1 },
  ];
  const reranked = await new LexicalReranker().rerank('Jefferson County seat courthouse', hits, { k: 1 });
  console.log(steps, reranked.map((h) => h.title));
  assert.equal(reranked[0]?.id, 'b');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
