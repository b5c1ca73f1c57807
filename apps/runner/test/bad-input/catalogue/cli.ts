import type { Kind } from '../harness';

/**
 * The cli area's kinds of bad input and fault (see ../catalogue.ts): the commands, their options
 * and help, and the eval machinery. `before` was measured by running each case against the runner
 * as it was before issue 16's fixes.
 */
export const KINDS: readonly Kind[] = [
  // Data lost
  { id: 'rollouts/out-exists', before: 'data-lost', what: 'rollouts --out naming an existing file (overwritten without a word; now refused unless --resume or --force)' },
  { id: 'evolve/out-not-state-dir', before: 'data-lost', what: "evolve --out naming a directory that is not a HERA state directory (an eval's, a project folder) or a file: HERA's state files written among its files (a prompts.json there replaced, an experience-library.json deleted), or a bare ENOTDIR" },

  // Silent wrong results
  { id: 'eval/cache-is-file', before: 'silent-wrong', what: 'eval --cache naming a file: every pair failed with UNEXPECTED: ENOTDIR and the eval exited 0' },
  { id: 'eval/environment-failure-retried', before: 'silent-wrong', what: 'resume after pairs failed on the environment (ENOTDIR): every pair counted as done, never retried' },
  { id: 'eval/every-pair-failed', before: 'silent-wrong', what: 'eval where every pair failed at the provider: exit 0, EM 0.000, comparisons with p = 1.000' },
  { id: 'eval/some-pairs-failed', before: 'silent-wrong', what: 'eval where some pairs failed: scored as EM 0 among the rest, no word of it' },
  { id: 'eval/ctrl-c-summary', before: 'silent-wrong', what: 'Ctrl-C during eval: the summary said "100 questions" when one pair ran' },
  { id: 'run/blank-question', before: 'silent-wrong', what: 'run --question "  " (blank): sent to the model' },
  { id: 'run/oversized-question', before: 'silent-wrong', what: 'run --question of 100,000 characters: sent as is (limit 4,000, MULTIHOP_MAX_QUESTION_CHARS)' },
  { id: 'cli/extra-argument-ignored', before: 'silent-wrong', what: 'chart par2-rag extra: an extra positional argument silently ignored' },
  { id: 'cli/option-of-another-command', before: 'silent-wrong', what: 'eval --group 2: an option another command has, silently ignored' },
  { id: 'workflows/json', before: 'silent-wrong', what: 'workflows --json: ignored, text printed' },
  { id: 'eval/json', before: 'silent-wrong', what: 'eval --json: ignored, Markdown printed' },

  // Crashes with a stack trace
  { id: 'eval/out-is-file', before: 'crash', what: 'eval --out naming a file (ENOTDIR)' },
  { id: 'eval/out-read-only', before: 'crash', what: 'eval --out inside a read-only directory (EACCES)' },
  { id: 'eval/out-under-proc', before: 'crash', what: "eval --out a path under /proc, where mkdir answers ENOENT: Node 20's recursive mkdir spun at 100% CPU for good" },
  { id: 'eval/results-read-only', before: 'crash', what: 'eval resuming into a read-only results.jsonl (EACCES)' },
  { id: 'eval/disk-full', before: 'crash', what: 'disk full while eval writes (ENOSPC, a real write to /dev/full)' },
  { id: 'rollouts/out-is-directory', before: 'crash', what: 'rollouts --out naming a directory (EISDIR)' },
  { id: 'rollouts/disk-full', before: 'crash', what: 'disk full while rollouts append (ENOSPC, --out /dev/full)' },

  // Unclear messages, help people expect
  { id: 'cli/negative-limit', before: 'unclear', what: '--limit -1: the argument parser\'s "ambiguous" text' },
  { id: 'cli/extra-argument-run', before: 'unclear', what: 'run par2-rag --question x: "run needs --workflow" and the whole usage' },
  { id: 'cli/command-help', before: 'unclear', what: 'eval --help: the same global usage for every command, no defaults' },
  { id: 'cli/help-command', before: 'unclear', what: 'multihop help eval: unknown command "help"' },
  { id: 'cli/version', before: 'unclear', what: 'multihop --version: unknown option' },
  { id: 'ingest/interrupted', before: 'unclear', what: 'ingest stopped with Ctrl-C: exit 130 and nothing said of what is kept' },
  { id: 'cli/setting-default', before: 'unclear', what: 'the default --setting: open for ingest/eval/sweep, closed for run/train/rollouts' },
  { id: 'run/json-gold', before: 'unclear', what: 'run --json on a dataset question: no gold, no EM/F1/recall' },

  // Already clear before issue 16: kept clear
  { id: 'cli/unknown-command', before: 'clear', what: 'an unknown command (now with a did-you-mean)' },
  { id: 'cli/unknown-option', before: 'clear', what: 'an option no command has' },
  { id: 'cli/missing-value', before: 'clear', what: 'an option given without its value (eval --limit)' },
  { id: 'cli/not-an-integer', before: 'clear', what: '--limit two' },
  { id: 'eval/resume-after-kill', before: 'clear', what: 'eval killed (SIGKILL) mid-run, a torn last line, then resumed' },
  { id: 'eval/writer-lock', before: 'clear', what: 'a second eval into a directory another eval is writing' },
  { id: 'eval/offset-past-end', before: 'clear', what: 'eval --offset past the last question' },
  { id: 'eval/unknown-workflow', before: 'clear', what: 'eval --workflows naming an unknown workflow' },
  { id: 'eval/unknown-set-key', before: 'clear', what: 'eval --set naming a setting the workflow does not have' },
  { id: 'eval/concurrency-zero', before: 'clear', what: 'eval --concurrency 0' },
  { id: 'eval/budget-not-positive', before: 'new', what: 'eval --max-llm-calls 0, run --timeout 30s, rollouts --temperature 3 (options added after the audit)' },
  { id: 'eval/malformed-results-line', before: 'clear', what: 'a results.jsonl line that is not JSON' },
  { id: 'eval/refused-dir-written', before: 'silent-wrong', what: 'eval --out a new directory refused for its results.jsonl: run.json was written anyway, and then refused the next eval of another dataset' },
  { id: 'eval/judge-unknown', before: 'unclear', what: 'eval --judge gpt4: refused only after every pair had run, naming --model' },
  { id: 'eval/other-model-dir', before: 'clear', what: 'eval into a directory that holds another model\'s results' },
  { id: 'eval/store-without-queue', before: 'clear', what: 'eval --store without --queue' },
  { id: 'resume/unknown-thread', before: 'clear', what: 'resume of a thread the store does not have' },
  { id: 'resume/other-model', before: 'silent-wrong', what: 'resume from a shell whose MULTIHOP_MODEL differs from the run\'s: the thread finished on the other model, its calls mixed' },
  { id: 'run/sqlite-addon-missing', before: 'unclear', what: "run --thread with better-sqlite3 installed but its addon never built (npm 12 skips the install script of a package the project's allowScripts does not list): 'cannot be opened as SQLite (Could not locate the bindings file. Tried: …' over a dozen lines, ending 'delete it'" },
  { id: 'resume/store-missing', before: 'unclear', what: 'resume --checkpoints a store that does not exist (a typo): made an empty store and said it had no threads' },
  { id: 'chart/unknown-workflow', before: 'clear', what: 'chart of an unknown workflow' },
  { id: 'report/not-eval-dir', before: 'clear', what: 'report of a directory that holds no eval' },
  { id: 'run/unknown-question-id', before: 'clear', what: 'run --dataset --id with an id the dataset does not have' },
  { id: 'run/question-and-id', before: 'clear', what: 'run with both --question and --dataset --id' },
  { id: 'rollouts/not-trainable', before: 'clear', what: 'rollouts of a workflow whose method trains nothing' },
  { id: 'rollouts/group-one', before: 'clear', what: 'rollouts --group 1' },
  { id: 'sweep/no-param', before: 'clear', what: 'sweep without --param' },
  { id: 'sweep/set-of-swept-setting', before: 'silent-wrong', what: 'sweep --param hopBudget=1,3 --set par2-rag.hopBudget=7: the --set silently dropped' },
  { id: 'run/question-closed', before: 'silent-wrong', what: 'run --question ... --setting closed: silently run open' },
  { id: 'train/unknown-trainer', before: 'clear', what: 'train with an unknown trainer' },
  { id: 'train/no-trainer', before: 'unclear', what: 'train with no trainer named: asked for --out instead of a trainer' },
  { id: 'sweep/workflow-without-settings', before: 'unclear', what: 'sweep --workflow direct --param k=1,2: "its settings: " and an empty list' },
  { id: 'run/corpus-unknown-name', before: 'unclear', what: 'run --question ... --corpus hotpotqa (no such dataset or file): a bare ENOENT' },
  { id: 'run/outside-method-build-fails', before: 'unclear', what: 'run --workflow of a method package the project in the working directory depends on, whose workflow throws as it is built: "this is a bug" with a stack, no package named' },
  { id: 'studio/port-out-of-range', before: 'clear', what: 'studio --port 70000' },
  { id: 'pipe/closed-reader', before: 'clear', what: 'workflows, ingest, chart, run, eval, --help with stdout closed early (| head): quiet exit' },
];
