import { scoreAnswer } from '@multihop/metrics';
import { defineOfflineHandler } from '../OfflineHandler';
import { judgeCorrectnessPrompt } from '@multihop/prompts';
import { text } from './vars';

/**
 * The offline judge: yes when the normalised gold answer appears in the prediction as whole
 * tokens (metrics' accuracy), or when their token F1 reaches 0.6; otherwise no. A lexical
 * stand-in for PAR² A.2's LLM judge, stricter than a real judge on paraphrases.
 */
export const judge = defineOfflineHandler(judgeCorrectnessPrompt, (vars) => {
  const score = scoreAnswer(text(vars, 'prediction', 'judge'), text(vars, 'gold', 'judge'));
  const yes = score.accuracy === 1 || score.f1 >= 0.6;
  return {
    explanation:
      score.accuracy === 1
        ? 'The ground-truth answer appears in the prediction.'
        : `Token F1 between prediction and ground truth is ${score.f1.toFixed(2)}${yes ? ', enough to match' : ', too little to match'}.`,
    decision: yes ? 'yes' : 'no',
  };
});
