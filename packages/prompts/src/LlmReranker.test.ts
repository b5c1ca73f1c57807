import { createModel, createScriptedProvider, type SearchHit } from '@multihop/core';
import { LlmReranker } from './LlmReranker';
import { rerankPrompt } from './templates/rerank';

const hit = (id: string, title: string, text: string, rank: number): SearchHit => ({ id, title, text, rank, score: 10 - rank });
const candidates = [
  hit('a', 'Copper mining', 'Chile is the largest producer of copper.', 1),
  hit('b', 'Ilse Varga', 'Ilse Varga was a Hungarian film director born in Debrecen.', 2),
  hit('c', 'Moonfall Harbor', 'Moonfall Harbor is a 1961 film directed by Ilse Varga.', 3),
];

describe('LlmReranker', () => {
  it('reorders by the model’s ranking through the model port', async () => {
    const provider = createScriptedProvider({ replies: { reranker: ['{"ranking": [2, 1]}'] } });
    const reranker = new LlmReranker(createModel({ provider }));
    const out = await reranker.rerank('Where was the director of Moonfall Harbor born?', candidates, { k: 3 });
    // The candidate the model left out follows in retrieval order: a reply can reorder, never lose, a hit.
    expect(out.map((h) => h.id)).toEqual(['c', 'b', 'a']);
    expect(out.map((h) => h.rank)).toEqual([1, 2, 3]);
    const request = provider.requests[0]!;
    expect(request.promptId).toBe('retriever.rerank');
    expect(request.role).toBe('reranker');
    expect(request.messages.at(-1)?.content).toContain('[1] Ilse Varga: Ilse Varga was a Hungarian film director');
  });

  it('cuts a long passage at maxChars without sending half a character (an emoji is two UTF-16 units)', async () => {
    const provider = createScriptedProvider({ replies: { reranker: ['{"ranking": [0]}'] } });
    await new LlmReranker(createModel({ provider }), { maxChars: 5 }).rerank('q', [hit('e', 'Pizza', 'abcd😀efg', 1)]);
    const sent = provider.requests[0]!.messages.at(-1)!.content;
    expect(sent).toContain('[0] Pizza: abcd\n');
    expect(sent).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('drops out-of-range and repeated indices', async () => {
    const provider = createScriptedProvider({ replies: { reranker: ['{"ranking": [7, 1, 1, 0]}'] } });
    const out = await new LlmReranker(createModel({ provider })).rerank('q', candidates);
    expect(out.map((h) => h.id)).toEqual(['b', 'a', 'c']);
  });

  it('has a schema that rejects non-index output', () => {
    expect(rerankPrompt.schema.safeParse({ ranking: [0, 2] }).success).toBe(true);
    expect(rerankPrompt.schema.safeParse({ ranking: ['c'] }).success).toBe(false);
    expect(rerankPrompt.schema.safeParse({ ranking: [-1] }).success).toBe(false);
    expect(() => rerankPrompt.render({ query: 'q' })).toThrow(/candidates/);
  });
});
