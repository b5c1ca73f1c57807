import type { Kind } from '../harness';

/** The router's commands and settings (issue 15), added after the audit: what a newcomer gets wrong with them. */
export const KINDS: readonly Kind[] = [
  { id: 'router/from-missing', before: 'new', what: 'train router --from a directory that does not exist' },
  { id: 'router/from-not-eval', before: 'new', what: 'train router --from a directory that is no eval output, or an eval with no results yet' },
  { id: 'router/without-from', before: 'new', what: 'train router without --from: bare, or with --dataset instead' },
  { id: 'router/from-with-run-options', before: 'silent-wrong', what: 'train router --from an eval with --dataset, --limit or --model: ignored, and every question of the eval trained on' },
  { id: 'router/lambda-not-number', before: 'new', what: 'train router --lambda abc' },
  { id: 'router/too-few-questions', before: 'new', what: 'train router --from an eval of 3 questions, or --part that keeps none of them' },
  { id: 'router/file-missing', before: 'new', what: '--set router.file= a file that does not exist' },
  { id: 'router/file-not-router', before: 'new', what: '--set router.file= a JSON file that is no router file' },
  { id: 'router/pool-unknown', before: 'new', what: '--set router.pool= a pool the router does not know, to run or to train' },
  { id: 'router/training-setting-out-of-range', before: 'unclear', what: 'train router --seed -3, or --set router.repeats=0: refused without naming the flag it came from' },
  { id: 'router/candidate-not-trained', before: 'new', what: '--set router.candidates= a workflow the router file was not trained on' },
  { id: 'router/single-candidate', before: 'silent-wrong', what: '--set router.candidates= one workflow (a list cut short): the router ran it on every question at the cost of its prediction' },
  { id: 'router/candidate-missing-in-eval', before: 'silent-wrong', what: 'train router --from two evals, one without a workflow the other ran: its questions were dropped from training without a word' },
  { id: 'router/file-bad-numbers', before: 'silent-wrong', what: '--set router.file= a router file with a standard deviation of 0 or a null weight: loaded, and a candidate silently never chosen' },
  { id: 'router/file-no-training', before: 'crash', what: '--set router.file= a router file without its training record: a TypeError' },
  { id: 'router/l2-zero', before: 'crash', what: 'train router --set router.l2=0: a singular matrix from the linear algebra library' },
  { id: 'router/out-not-router-file', before: 'data-lost', what: 'train router --out a file that is no router file (a README, another method\'s policy): overwritten' },
  { id: 'router/lambda-negative', before: 'silent-wrong', what: '--set router.lambda=-0.5: silently the router file\'s λ' },
];
