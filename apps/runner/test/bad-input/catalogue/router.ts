import type { Kind } from '../harness';

/** The router's commands and settings (issue 15), added after the audit: what a newcomer gets wrong with them. */
export const KINDS: readonly Kind[] = [
  { id: 'router/from-missing', before: 'new', what: 'train router --from a directory that does not exist' },
  { id: 'router/from-not-eval', before: 'new', what: 'train router --from a directory that is no eval output, or an eval with no results yet' },
  { id: 'router/without-from', before: 'new', what: 'train router without --from: bare, or with --dataset instead' },
  { id: 'router/lambda-not-number', before: 'new', what: 'train router --lambda abc' },
  { id: 'router/too-few-questions', before: 'new', what: 'train router --from an eval of 3 questions, or --part that keeps none of them' },
  { id: 'router/file-missing', before: 'new', what: '--set router.file= a file that does not exist' },
  { id: 'router/file-not-router', before: 'new', what: '--set router.file= a JSON file that is no router file' },
  { id: 'router/pool-unknown', before: 'new', what: '--set router.pool= a pool the router does not know, to run or to train' },
  { id: 'router/training-setting-out-of-range', before: 'unclear', what: 'train router --seed -3, or --set router.repeats=0: refused without naming the flag it came from' },
  { id: 'router/candidate-not-trained', before: 'new', what: '--set router.candidates= a workflow the router file was not trained on' },
];
