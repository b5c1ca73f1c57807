import { foldUnicodePunctuation, scoreAnswer, squadNormalize } from '@multihop/metrics';
import { defineOfflineHandler } from '../OfflineHandler';
import { judgeCorrectnessPrompt } from '@multihop/prompts';
import { MultihopError } from '@multihop/core';
import { text } from './vars';

/** The gold answer, or the answer and its aliases: any one of them, as the prompt tells a real judge. */
function golds(vars: Record<string, unknown>): string[] {
  const value = vars['gold'];
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) return value as string[];
  if (Array.isArray(value)) throw new MultihopError('OFFLINE_VARS', 'offline model, role judge: variable "gold" must be a string or a non-empty list of strings');
  return [text(vars, 'gold', 'judge')];
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A text as the judge reads it, before the SQuAD normalisation: compatibility forms folded (NFKC:
 * "１９８０" is "1980"), a zero-width space a space and other invisible characters removed, typographic quotes and dashes as ASCII
 * ("Ireland’s" is "Ireland's"), any other script's punctuation a space ("中华人民共和国。"), and each
 * Chinese character or kana a word of its own, as MLQA scores Chinese, so a Chinese or Japanese
 * gold answer is found inside a longer answer and overlaps it in part. ASCII text is as it is: the
 * judge stands in for a language model, which reads past such differences.
 */
function readable(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  return foldUnicodePunctuation(text.normalize('NFKC').replace(/\u200b/gu, ' ').replace(/\p{Cf}/gu, ''))
    .replace(/(?![\x00-\x7f])\p{P}/gu, ' ')
    .replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu, ' $& ');
}

/** The first "yes" or "no" among the normalised words of a text, if any: how a closed answer reads. */
function firstYesOrNo(text: string): 'yes' | 'no' | undefined {
  return squadNormalize(text).split(' ').find((w): w is 'yes' | 'no' => w === 'yes' || w === 'no');
}

/**
 * The offline judge: yes when the normalised gold answer (or one of its aliases) appears in the
 * prediction as whole tokens (metrics' accuracy), or when their token F1 reaches 0.6 (the best
 * over the aliases); otherwise no. A yes/no gold answer is matched by the prediction's first "yes"
 * or "no" instead: "Yes, there is no doubt" holds the word "no" but answers yes. A lexical
 * stand-in for PAR² A.2's LLM judge, stricter than a real judge on paraphrases.
 */
export const judge = defineOfflineHandler(judgeCorrectnessPrompt, (vars) => {
  const prediction = readable(text(vars, 'prediction', 'judge'));
  const gold = golds(vars).map(readable);
  const closed = gold.map(squadNormalize);
  if (closed.every((g) => g === 'yes') || closed.every((g) => g === 'no')) {
    const answered = firstYesOrNo(prediction);
    const yes = answered === closed[0];
    return {
      explanation: answered ? `The prediction answers ${answered}; the ground truth is ${closed[0]}.` : `The prediction answers neither yes nor no; the ground truth is ${closed[0]}.`,
      decision: yes ? 'yes' : 'no',
    };
  }
  const score = scoreAnswer(prediction, gold);
  const yes = score.accuracy === 1 || score.f1 >= 0.6;
  return {
    explanation:
      score.accuracy === 1
        ? 'The ground-truth answer appears in the prediction.'
        : `Token F1 between prediction and ground truth is ${score.f1.toFixed(2)}${yes ? ', enough to match' : ', too little to match'}.`,
    decision: yes ? 'yes' : 'no',
  };
});
