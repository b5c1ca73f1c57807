import { idfTable, terms } from '@multihop/lexical';
import { defineOfflineHandler } from '../OfflineHandler';
import { rerankPrompt } from '@multihop/prompts';
import { text } from './vars';

/**
 * Listwise rerank: candidates ordered by the IDF weight of the query terms they contain, the
 * title counting double (titles name the entity a passage is about); ties keep the given order.
 */
export const rerank = defineOfflineHandler(rerankPrompt, (vars) => {
  const query = text(vars, 'query', 'reranker');
  const candidates = Array.isArray(vars['candidates']) ? (vars['candidates'] as Array<{ index: number; title: string; text: string }>) : [];
  const idf = idfTable(candidates.map((c) => `${c.title} ${c.text}`));
  const wanted = [...new Set(terms(query))];
  const scored = candidates.map((c, order) => {
    const title = new Set(terms(c.title));
    const body = new Set(terms(c.text));
    const score = wanted.reduce((sum, t) => sum + (title.has(t) ? 2 * idf(t) : body.has(t) ? idf(t) : 0), 0);
    return { index: c.index, score, order };
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return { ranking: scored.map((s) => s.index) };
});
