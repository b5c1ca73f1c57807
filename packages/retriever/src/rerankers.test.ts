import { createModel, createScriptedProvider, type SearchHit } from '@multihop/core';
import { LexicalReranker } from '@multihop/lexical';

const hit = (id: string, title: string, text: string, rank: number): SearchHit => ({ id, title, text, rank, score: 10 - rank });
const candidates = [
  hit('a', 'Copper mining', 'Chile is the largest producer of copper.', 1),
  hit('b', 'Ilse Varga', 'Ilse Varga was a Hungarian film director born in Debrecen.', 2),
  hit('c', 'Moonfall Harbor', 'Moonfall Harbor is a 1961 film directed by Ilse Varga.', 3),
];

describe('LexicalReranker', () => {
  it('moves candidates covering the query’s terms up, titles counting more', async () => {
    const out = await new LexicalReranker().rerank('Where was the director of Moonfall Harbor born?', candidates);
    expect(out.map((h) => h.id)).toEqual(['c', 'b', 'a']);
    expect(out.map((h) => h.rank)).toEqual([1, 2, 3]);
  });

  it('keeps retrieval order on ties and cuts to k', async () => {
    const out = await new LexicalReranker().rerank('unrelated words entirely', candidates, { k: 2 });
    expect(out.map((h) => h.id)).toEqual(['a', 'b']);
  });
});
