import { tokens } from '../lexical/text';
import type { OfflineHandler } from '../OfflineHandler';
import { text } from './vars';

const ARTICLES = new Set(['a', 'an', 'the']);
const norm = (s: string) => tokens(s).filter((t) => !ARTICLES.has(t));

/**
 * The offline judge: yes when the normalised gold answer appears inside the prediction, or
 * when their token F1 reaches 0.6; otherwise no. A lexical stand-in for PAR² A.2's LLM judge,
 * stricter than a real judge on paraphrases.
 */
export const judge: OfflineHandler = (vars) => {
  const prediction = norm(text(vars, 'prediction', 'judge'));
  const gold = norm(text(vars, 'gold', 'judge'));
  const contained = gold.length > 0 && ` ${prediction.join(' ')} `.includes(` ${gold.join(' ')} `);
  const counts = new Map<string, number>();
  for (const t of gold) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of prediction) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      common++;
      counts.set(t, c - 1);
    }
  }
  const f1 = common === 0 ? 0 : (2 * common) / (prediction.length + gold.length);
  const yes = contained || f1 >= 0.6;
  return {
    explanation: contained
      ? 'The ground-truth answer appears in the prediction.'
      : `Token overlap between prediction and ground truth is ${f1.toFixed(2)}${yes ? ', enough to match' : ', too little to match'}.`,
    decision: yes ? 'yes' : 'no',
  };
};
