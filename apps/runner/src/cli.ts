import { parseArgs } from 'node:util';
import { ConfigError, MultihopError, editDistance, type Budget } from '@multihop/core';
import type * as Chart from './commands/chart';
import type * as Eval from './commands/eval';
import type * as Ingest from './commands/ingest';
import type * as Predict from './commands/predict';
import type * as Report from './commands/report';
import type * as Resume from './commands/resume';
import type * as Rollouts from './commands/rollouts';
import type * as Run from './commands/run';
import type * as Studio from './commands/studio';
import type * as Sweep from './commands/sweep';
import type * as Threads from './commands/threads';
import type * as Train from './commands/train';
import type * as Worker from './commands/worker';
import type * as Workflows from './commands/workflows';
import { describeSystemError, isSystemError, processIo, type Io } from './io';
import { onMethodProblem } from './methods';
import { DEFAULT_SETTING, parseSetting } from './setting';

// Each command loads what it needs when it runs: listing workflows must not load LanceDB, and
// nothing loads the OpenAI client unless a role selects it (see model.ts).
const load = {
  chart: (): typeof Chart => require('./commands/chart'),
  eval: (): typeof Eval => require('./commands/eval'),
  ingest: (): typeof Ingest => require('./commands/ingest'),
  predict: (): typeof Predict => require('./commands/predict'),
  report: (): typeof Report => require('./commands/report'),
  resume: (): typeof Resume => require('./commands/resume'),
  rollouts: (): typeof Rollouts => require('./commands/rollouts'),
  run: (): typeof Run => require('./commands/run'),
  studio: (): typeof Studio => require('./commands/studio'),
  sweep: (): typeof Sweep => require('./commands/sweep'),
  threads: (): typeof Threads => require('./commands/threads'),
  train: (): typeof Train => require('./commands/train'),
  worker: (): typeof Worker => require('./commands/worker'),
  workflows: (): typeof Workflows => require('./commands/workflows'),
};

export type { Io } from './io';

/** One option of a command: how it parses, and what its help says. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** The value's placeholder in help (`N`, `DIR`). */
  arg?: string;
  multiple?: boolean;
  /** The default as it would be given on the command line: parsing uses it and help prints it. */
  default?: string;
  /** What help says when there is no single default value (`all`, `MULTIHOP_MODEL, else ...`). */
  defaultText?: string;
  required?: boolean;
  help: string;
}

/** One command: its arguments, its options, and one line on what it does. */
export interface CommandSpec {
  summary: string;
  /** Positional arguments (`<workflow>`); a command takes no more than these. */
  args?: { name: string; required: boolean }[];
  options: Record<string, OptionSpec>;
  /** Lines of help after the options. */
  notes?: string[];
}

// The options several commands share, defined once.
const dataset: OptionSpec = { type: 'string', arg: '<name|path>', required: true, help: 'a shared dataset (hotpotqa-dev, 2wiki-dev, musique-dev, hotpotqa-train, musique-train) or a question file' };
const setting: OptionSpec = {
  type: 'string',
  arg: 'open|closed',
  default: DEFAULT_SETTING,
  help: "open: every question searches the dataset's pooled corpus; closed: a dataset question searches only its own paragraphs",
};
const db: OptionSpec = { type: 'string', arg: 'DIR', defaultText: '.multihop/lancedb', help: 'the embedded LanceDB directory (or a LanceDB URI)' };
const model: OptionSpec = { type: 'string', arg: 'offline|openai:<model>', defaultText: 'MULTIHOP_MODEL, else multihop.config.json, else offline', help: 'the default model: every role a multihop.config.json does not give its own' };
const set: OptionSpec = { type: 'string', arg: '<id>.<setting>=<value>', multiple: true, help: "change a workflow's setting, checked by its schema (repeatable)" };
const json: OptionSpec = { type: 'boolean', help: 'print JSON on stdout (progress stays on stderr)' };
const corpus: OptionSpec = { type: 'string', arg: 'FILE', help: "a corpus file, searched with (open) the dataset's paragraphs" };
const layout: OptionSpec = { type: 'string', arg: 'L', defaultText: "detected from the file", help: 'the layout of a dataset file' };
const skipInvalid: OptionSpec = { type: 'boolean', help: 'load the valid records of a question file with invalid ones, and report the rest (a --corpus file must be valid throughout)' };
const limit: OptionSpec = { type: 'string', arg: 'N', defaultText: 'all', help: 'at most N questions' };
const offset: OptionSpec = { type: 'string', arg: 'M', default: '0', help: 'skip the first M questions of the file (with --skip-invalid: of the valid ones)' };
/** --offset of the commands that take no --skip-invalid (train, evolve, rollouts). */
const plainOffset: OptionSpec = { ...offset, help: 'skip the first M questions of the file' };
const part: OptionSpec = { type: 'string', arg: 'K/N', help: 'only the questions whose id falls in part K of N (a split by a hash of the id, after --offset and --limit): e.g. train on 1/2, report on 2/2' };
const workflow: OptionSpec = { type: 'string', arg: '<id>', required: true, help: 'a workflow id (multihop workflows lists them)' };
// A run's budget (SPEC §3): a run that reaches one stops at the next step and is reported partial, its stop reason `budget:<limit>`.
const budget: Record<string, OptionSpec> = {
  'max-llm-calls': { type: 'string', arg: 'N', defaultText: 'no limit', help: 'each run makes at most N model calls, then stops with its draft answer (status partial, budget:maxLlmCalls)' },
  'max-tokens': { type: 'string', arg: 'N', defaultText: 'no limit', help: "each run stops before a model call once its calls have spent N tokens, prompt plus completion (partial, budget:maxTokens; the call that crosses N finishes)" },
  timeout: { type: 'string', arg: 'S', defaultText: 'no limit', help: "each run stops after S seconds of wall time, aborting its calls in flight (partial, budget:deadline)" },
};

const evaluation: Record<string, OptionSpec> = {
  dataset,
  offset,
  limit,
  part,
  concurrency: { type: 'string', arg: 'K', default: '2', help: "pairs (question × workflow) run at a time; given, also the most model requests in flight at once, the judge's included (over the config file's concurrency); not given, requests in flight are the config file's concurrency, else 4" },
  ...budget,
  setting,
  corpus,
  layout,
  'skip-invalid': skipInvalid,
  set,
  model,
  judge: { type: 'string', arg: 'offline|openai:<model>', defaultText: "the model configuration's judge role", help: 'the model that judges answers, as in PAR² A.2' },
  out: { type: 'string', arg: 'DIR', defaultText: '.multihop/<command>/<dataset>-<setting>-<model>', help: 'the results directory; re-running with the same DIR resumes (finished pairs are kept, failed ones that may pass now run again); the default is shared by evals of the same dataset, setting, model and settings, each writing its summary over the last' },
  cache: { type: 'string', arg: 'DIR', help: "a directory caching the model's replies (checked before any pair runs)" },
  db,
  json: { type: 'boolean', help: 'print the summary as JSON on stdout instead of Markdown (progress stays on stderr)' },
  queue: { type: 'string', arg: 'redis://HOST:PORT', help: 'run the pairs on multihop worker processes' },
  store: { type: 'string', arg: 'postgres://...', defaultText: 'the results directory', help: 'with --queue: where workers record results' },
};

/** Every command and its options: the one source of truth for parsing and for help. */
export /** Names other tools give these commands, for the "did you mean" of an unknown one (spelling alone would not find them). */
const SYNONYMS: Readonly<Record<string, string>> = { list: 'workflows', ls: 'workflows', methods: 'workflows', evaluate: 'eval', index: 'ingest', serve: 'studio', ui: 'studio', continue: 'resume' };

const COMMANDS: Record<string, CommandSpec> = {
  workflows: {
    summary: "list the installed workflows: engine, title, paper, settings with their defaults",
    options: { json: { type: 'boolean', help: 'print the list as JSON' } },
  },
  ingest: {
    summary: 'put a dataset, a corpus file, or both into the embedded LanceDB store',
    options: {
      // Not required alone: a corpus file alone (--corpus) is ingested too.
      dataset: { ...dataset, required: false, help: `${dataset.help}; needed unless --corpus is given` },
      corpus,
      layout,
      setting,
      db,
      'skip-invalid': skipInvalid,
      rebuild: { type: 'boolean', help: "drop the corpus's tables and ingest it anew (what repairs a damaged corpus store)" },
    },
  },
  run: {
    summary: 'answer one question with one workflow: answer, evidence, trace and usage',
    options: {
      workflow,
      question: { type: 'string', arg: '"..."', help: 'free text (at most MULTIHOP_MAX_QUESTION_CHARS characters, default 4000); searched over --corpus' },
      corpus: { type: 'string', arg: '<name|path>', defaultText: 'hotpotqa-dev with --question', help: 'the corpus a --question searches, or a corpus file joined to a dataset question' },
      dataset: { ...dataset, required: false, help: 'with --id: a dataset question (its gold and scores are shown)' },
      id: { type: 'string', arg: '<qid>', help: 'the question id in --dataset' },
      setting: { ...setting, help: `${setting.help} (a --question or --corpus is always open)` },
      set,
      model,
      db,
      json: { type: 'boolean', help: 'print the RunResult as JSON, with the gold and EM/F1/recall for a dataset question' },
      layout,
      'skip-invalid': skipInvalid,
      thread: { type: 'string', arg: '<id>', help: 'checkpoint the run under this thread, so multihop resume <id> can continue it' },
      checkpoints: { type: 'string', arg: 'FILE|postgres://...', defaultText: 'MULTIHOP_CHECKPOINTS, else .multihop/checkpoints.sqlite', help: 'the checkpoint store' },
      ...budget,
    },
    notes: ['Give --question "..." [--corpus <name|path>], or --dataset <name|path> --id <qid>.'],
  },
  resume: {
    summary: "continue a run started with --thread from its last checkpoint",
    args: [{ name: '<thread id>', required: true }],
    options: {
      thread: { type: 'string', arg: '<id>', help: 'the thread (instead of the argument)' },
      checkpoints: { type: 'string', arg: 'FILE|postgres://...', defaultText: 'MULTIHOP_CHECKPOINTS, else .multihop/checkpoints.sqlite', help: 'the checkpoint store the run used' },
      json: { type: 'boolean', help: 'print the RunResult as JSON' },
    },
  },
  threads: {
    summary: 'list the threads of run --thread in a checkpoint store, or remove them',
    options: {
      checkpoints: { type: 'string', arg: 'FILE|postgres://...', defaultText: 'MULTIHOP_CHECKPOINTS, else .multihop/checkpoints.sqlite', help: 'the checkpoint store' },
      delete: { type: 'string', arg: '<id,...>', help: 'remove these threads: their checkpoints, completed calls and record (a thread another process runs is refused)' },
      'delete-finished': { type: 'boolean', help: 'remove every finished thread' },
      json: { type: 'boolean', help: 'print the threads as JSON' },
    },
  },
  eval: {
    summary: 'run workflows on the same questions, judge the answers, write results and a summary (resumable)',
    options: { workflows: { type: 'string', arg: '<id,...>', required: true, help: 'workflow ids, comma-separated' }, ...evaluation },
    notes: [
      'A pair that failed is counted in the failed column: a failure of the workflow\'s own (MODEL_OUTPUT, PLAN, STEP_LIMIT, a request the server refused with 400, 413 or 422, unless it names a setting the configuration sends) scores as a wrong answer with the tokens it spent; any other (provider, network, file system) is left out of the metrics and run again by a re-run of the same command.',
      'Exit code: 0 when pairs succeeded (a banner names any that failed), 1 when none did or when the judge judged none of their answers, 2 for bad input, 130 after Ctrl-C (the summary is marked incomplete).',
      'Budgets: a run that reaches --max-llm-calls, --max-tokens or --timeout stops with its draft answer, status partial (budget:maxLlmCalls, budget:maxTokens, budget:deadline).',
    ],
  },
  predict: {
    summary: 'answer every question of a question set with workflows, scoring nothing: a test split without gold (resumable)',
    options: {
      workflows: { type: 'string', arg: '<id,...>', required: true, help: 'workflow ids, comma-separated' },
      dataset: { ...dataset, help: 'a question file, with or without answers (`{id, question}` lines, a Question column, a 2Wiki-style test file with paragraphs), or a shared dataset' },
      corpus: { ...corpus, help: 'a corpus file the questions search (a question list brings no paragraphs of its own)' },
      setting,
      offset,
      limit,
      part,
      concurrency: { type: 'string', arg: 'K', default: '2', help: 'pairs (question × workflow) run at a time; given, also the most model requests in flight' },
      ...budget,
      set,
      model,
      out: { type: 'string', arg: 'DIR', defaultText: '.multihop/predict/<dataset>-<setting>-<model>', help: 'the predictions directory; re-running with the same DIR resumes' },
      cache: { type: 'string', arg: 'DIR', help: "a directory caching the model's replies" },
      db,
      layout,
      'skip-invalid': skipInvalid,
      json: { type: 'boolean', help: 'print the summary as JSON on stdout instead of Markdown' },
    },
    notes: [
      'Writes predictions.jsonl (a line per pair: answer, status, usage, evidence, trace file), answers/<workflow>.json ({ question id: answer }), traces/, summary.md and summary.json (how runs ended, calls, tokens, latency). Nothing is scored or judged: `multihop eval` scores a question set with gold.',
      'Exit code: 0 when pairs succeeded, 1 when none did, 2 for bad input, 130 after Ctrl-C.',
    ],
  },
  sweep: {
    summary: "one workflow at each value of its settings, into one summary with a row per value",
    options: {
      workflow,
      param: { type: 'string', arg: '<setting>=<v1>,<v2>,...', multiple: true, required: true, help: 'the values to sweep (repeatable: every combination)' },
      ...evaluation,
    },
    notes: ['Exit code: as eval: 0 when pairs succeeded, 1 when none did or when the judge judged none of their answers, 2 for bad input, 130 after Ctrl-C.'],
  },
  worker: {
    summary: 'run queued eval pairs (multihop eval --queue) until Ctrl-C',
    options: {
      queue: { type: 'string', arg: 'redis://HOST:PORT', required: true, help: 'the queue eval puts its pairs on' },
      concurrency: { type: 'string', arg: 'K', default: '2', help: 'pairs run at a time' },
      'rate-limit': { type: 'string', arg: 'N/1s', help: "BullMQ's limiter, shared by every worker of the queue" },
      'stalled-after': { type: 'string', arg: 'S', default: '30', help: 'seconds before a killed worker\'s pair goes to another' },
      db,
      'idle-exit': { type: 'string', arg: 'S', help: 'exit after S seconds with nothing to do' },
    },
  },
  train: {
    summary: 'train a policy a method offers (mao-arag-planner, router, ...) and write it to --out',
    args: [{ name: '<trainer>', required: true }],
    options: {
      dataset: { ...dataset, required: false, arg: '<name|path>[,...]', help: 'the training questions (not with --from)' },
      from: { type: 'string', arg: '<eval dir>', multiple: true, help: 'a finished eval a trainer such as the router learns from (repeatable)' },
      part: { ...part, help: 'only the questions whose id falls in part K of N (of --dataset after --offset and --limit, or of each --from eval)' },
      out: { type: 'string', arg: 'FILE', required: true, help: 'the policy file (a trainer of runs resumes from it; the router replaces a router file and refuses any other)' },
      alpha: { type: 'string', arg: 'A', defaultText: "the trainer's", help: "the trainer's alpha setting (mao-arag-planner: α, the cost weight of R = F1 − α·CP − FP)" },
      epochs: { type: 'string', arg: 'N', defaultText: "the trainer's", help: 'passes over the questions' },
      seed: { type: 'string', arg: 'S', defaultText: "the trainer's", help: 'random seed' },
      lambda: { type: 'string', arg: 'L', defaultText: "the trainer's", help: "the router's cost weight" },
      offset: plainOffset,
      limit,
      set: { ...set, arg: '<trainer>.<setting>=<value>', help: "change a trainer's setting (repeatable)" },
      setting,
      model,
      db,
    },
  },
  evolve: {
    summary: 'let a method that learns without weight updates (HERA) evolve its state over rounds',
    options: {
      workflow,
      dataset: { ...dataset, arg: '<name|path>[,...]' },
      rounds: { type: 'string', arg: 'N', defaultText: "the trainer's", help: 'rounds of evolution' },
      seed: { type: 'string', arg: 'S', defaultText: "the trainer's", help: 'random seed' },
      out: { type: 'string', arg: 'DIR', defaultText: '.multihop/state/<workflow>-<dataset>', help: 'the state directory (load it with --set <workflow>.state=DIR)' },
      offset: plainOffset,
      limit,
      part,
      set: { ...set, arg: '<trainer>.<setting>=<value>', help: "change a trainer's setting (repeatable)" },
      setting,
      model,
      db,
    },
  },
  chart: {
    summary: "print a workflow's state chart (from the real graph or machine)",
    args: [{ name: '<workflow>', required: true }],
    options: { format: { type: 'string', arg: 'mermaid|json', default: 'mermaid', help: 'the output format' }, set },
  },
  rollouts: {
    summary: 'write training rollouts (GRPO groups) of a method that trains its agents, one JSONL line per candidate',
    options: {
      workflow: { ...workflow, arg: '<method>' },
      dataset,
      group: { type: 'string', arg: 'G', required: true, help: 'candidates per group (at least 2)' },
      temperature: { type: 'string', arg: 'T', defaultText: '1', help: "the sampling temperature of candidates 1…G−1 (candidate 0 keeps the role's configured one); the offline model ignores it" },
      offset: plainOffset,
      limit,
      part,
      out: { type: 'string', arg: 'FILE.jsonl', required: true, help: 'the rollouts file; an existing one is refused unless --resume or --force' },
      resume: { type: 'boolean', help: 'append to an existing --out, skipping the questions already in it' },
      force: { type: 'boolean', help: 'overwrite an existing --out (and --sft files)' },
      sft: { type: 'string', arg: 'DIR', help: 'also write supervised warm-start examples, <role>.jsonl per agent' },
      setting,
      model,
      db,
    },
  },
  studio: {
    summary: 'serve the local web app: charts, live runs, replays, eval plots',
    options: {
      port: { type: 'string', arg: 'N', defaultText: 'a free port', help: 'the port (127.0.0.1)' },
      host: { type: 'string', arg: 'HOST', defaultText: '127.0.0.1', help: 'the address to bind' },
      open: { type: 'boolean', help: 'open the browser' },
      eval: { type: 'string', arg: 'DIR', multiple: true, help: 'an eval directory the page may open besides those under the working directory (repeatable)' },
      model,
      db,
    },
  },
  report: {
    summary: "write an eval directory's view as one HTML file to share",
    args: [{ name: '<eval dir>', required: true }],
    options: { out: { type: 'string', arg: 'FILE.html', defaultText: '<eval dir>/report.html', help: 'the HTML file' } },
  },
  help: {
    summary: "describe a command's options and their defaults",
    args: [{ name: '<command>', required: false }],
    options: {},
  },
};

const GLOBAL: Record<string, OptionSpec & { short?: string }> = {
  help: { type: 'boolean', short: 'h', help: 'this help' },
  version: { type: 'boolean', short: 'V', help: 'print the version' },
};

const pad = (text: string, width: number) => (text.length >= width ? `${text}  ` : text.padEnd(width));

export function version(): string {
  return (require('../package.json') as { version: string }).version;
}

/** The help of one command, from its spec. */
export function commandHelp(name: string): string {
  const spec = COMMANDS[name]!;
  const required = Object.entries(spec.options).filter(([, o]) => o.required);
  const synopsis = [
    `multihop ${name}`,
    ...(spec.args ?? []).map((a) => (a.required ? a.name : `[${a.name}]`)),
    ...required.map(([n, o]) => `--${n} ${o.arg ?? ''}`.trim()),
    ...(Object.keys(spec.options).length > required.length ? ['[options]'] : []),
  ].join(' ');
  const rows = [...Object.entries(spec.options), ['help', GLOBAL['help']!] as const].map(([n, o]) => {
    const flag = `${o === GLOBAL['help'] ? '-h, ' : ''}--${n}${o.arg ? ` ${o.arg}` : ''}`;
    const notes = [
      o.required ? 'required' : undefined,
      o.default !== undefined ? `default: ${o.default}` : o.defaultText ? `default: ${o.defaultText}` : undefined,
    ].filter(Boolean);
    return [flag, `${o.help}${notes.length ? ` (${notes.join('; ')})` : ''}`] as const;
  });
  const width = Math.min(34, Math.max(...rows.map(([f]) => f.length)) + 2);
  return [
    `multihop ${name} — ${spec.summary}`,
    '',
    `Usage: ${synopsis}`,
    '',
    'Options:',
    ...rows.map(([f, h]) => `  ${pad(f, width)}${h}`),
    ...(spec.notes?.length ? ['', ...spec.notes] : []),
  ].join('\n');
}

/** The global usage: every command with one line, and where to read more. */
export const USAGE = [
  'multihop — multi-agent RAG workflows for multi-hop QA (offline by default)',
  '',
  'Usage: multihop <command> [options]',
  '',
  'Commands:',
  ...Object.entries(COMMANDS).map(([name, spec]) => `  ${pad(`${name}${spec.args?.length ? ` ${spec.args.map((a) => (a.required ? a.name : `[${a.name}]`)).join(' ')}` : ''}`, 22)}${spec.summary}`),
  '',
  'multihop <command> --help (or multihop help <command>) lists its options with their defaults; multihop --version prints the version.',
  '',
  'Datasets: hotpotqa-dev, 2wiki-dev, musique-dev, hotpotqa-train, musique-train (../shared/datasets), or a path.',
  `Setting: every command searches the dataset's pooled corpus (${DEFAULT_SETTING}) unless --setting closed.`,
  'Model: --model, else MULTIHOP_MODEL, else multihop.config.json (or the file MULTIHOP_CONFIG names: per-role models, temperature, concurrency), else the offline model.',
  'An openai:<model> calls OPENAI_BASE_URL (default https://api.openai.com/v1) with the key in OPENAI_API_KEY (any non-empty value for a local server); MULTIHOP_CALL_DEADLINE_MS bounds one model call, every attempt and wait together.',
  'No temperature is sent unless multihop.config.json sets one per role (the server\'s default applies): set "temperature": 0 for reproducible runs and judging.',
].join('\n');

const ALL_OPTIONS: Record<string, OptionSpec> = Object.assign({}, ...Object.values(COMMANDS).map((c) => c.options), GLOBAL);

/** parseArgs's option table for a command, defaults included. */
function parseOptions(specs: Record<string, OptionSpec & { short?: string }>, withDefaults: boolean) {
  return Object.fromEntries(
    Object.entries(specs).map(([n, o]) => [
      n,
      {
        type: o.type,
        ...(o.multiple ? { multiple: true } : {}),
        ...(o.short ? { short: o.short } : {}),
        ...(withDefaults && o.default !== undefined && o.type === 'string' ? { default: o.default } : {}),
      },
    ]),
  ) as Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string; default?: string }>;
}

/**
 * `--limit -1`: node's parser reads `-1` as an option and answers "ambiguous"; a string option's
 * value that looks like a negative number is the option's value, checked like any other.
 */
function attachNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    const next = argv[i + 1];
    if (name && ALL_OPTIONS[name]?.type === 'string' && next !== undefined && /^-(\d|\.\d)/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** The closest name to `given` (a typo of a command or option), if any is close. */
function closest(given: string, names: readonly string[]): string | undefined {
  const scored = names.map((n) => ({ n, d: n.startsWith(given) && given.length >= 2 ? 0 : editDistance(given, n) })).sort((a, b) => a.d - b.d);
  return scored[0] && scored[0].d <= Math.max(1, Math.floor(scored[0].n.length / 3)) ? scored[0].n : undefined;
}

/** A parse error of node's parser, said in terms of the command. */
function parseError(command: string, error: Error & { code?: string }): ConfigError {
  const option = /'(-[^' ]+)/.exec(error.message)?.[1];
  const name = option?.replace(/^-+/, '');
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    const elsewhere = name && name in ALL_OPTIONS ? Object.keys(COMMANDS).filter((c) => name in COMMANDS[c]!.options) : [];
    const typo = name ? closest(name, Object.keys(COMMANDS[command]!.options)) : undefined;
    // A near miss of this command's own option (eval --workflow for --workflows) is the likelier mistake.
    const hints = [typo ? `did you mean --${typo}?` : '', elsewhere.length ? `--${name} is an option of ${elsewhere.join(', ')}` : ''].filter(Boolean);
    return new ConfigError(`${command}: unknown option '${option}'${hints.length ? ` (${hints.join(' ')})` : ''}; multihop ${command} --help lists its options`);
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && name && /argument missing/.test(error.message)) {
    // This command's placeholder: --out is a FILE.html to report but a DIR to eval.
    const spec = COMMANDS[command]!.options[name] ?? ALL_OPTIONS[name];
    return new ConfigError(`${command}: --${name} needs a value${spec?.arg ? ` (${spec.arg})` : ''}`);
  }
  return new ConfigError(`${command}: ${error.message}`);
}

/** The CLI: returns the exit code; errors of the project's own kinds, and file-system errors, print as one clear line. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  // A method package that does not load is left out with a warning; the command goes on with the rest.
  const stopWarnings = onMethodProblem((problem) => io.err(`multihop: warning: ${problem}`));
  try {
    return await dispatch(attachNegativeValues(argv), io);
  } catch (error) {
    if (error instanceof MultihopError) {
      io.err(`multihop: ${error.message}`);
      return 2;
    }
    if ((error as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS')) {
      io.err(`multihop: ${(error as Error).message}`);
      return 2;
    }
    // A file that cannot be read or written (a read-only directory, a full disk, a path through a
    // file): what, which path, why, in one line. Everything already written stays as it is.
    if (isSystemError(error)) {
      io.err(`multihop: ${describeSystemError(error)}`);
      return 1;
    }
    throw error;
  } finally {
    stopWarnings();
  }
}

async function dispatch(argv: string[], io: Io): Promise<number> {
  // First pass: find the command (and the global flags) among every option any command knows.
  const first = parseArgs({ args: argv, options: parseOptions(ALL_OPTIONS, false), allowPositionals: true, strict: false });
  const command = first.positionals[0];
  if (first.values['version'] === true && !command) {
    io.out(version());
    return 0;
  }
  if (!command) {
    if (first.values['help'] === true) {
      io.out(USAGE);
      return 0;
    }
    // An option before any command that no command knows (multihop -v): named, not only the usage.
    const stray = argv.find((a) => a.startsWith('-') && !/^--?(h|help|V|version)$/.test(a));
    if (stray) throw new ConfigError(`'${stray}' but no command: multihop <command> [options]; multihop --help lists the commands, multihop --version prints the version`);
    io.err(USAGE);
    return 2;
  }
  const spec = COMMANDS[command];
  if (!spec) {
    const guess = SYNONYMS[command] ?? closest(command, Object.keys(COMMANDS));
    throw new ConfigError(`unknown command "${command}"${guess ? ` (did you mean ${guess}?)` : ''}; commands: ${Object.keys(COMMANDS).join(', ')} (multihop --help)`);
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: parseOptions({ ...spec.options, help: GLOBAL['help']! }, true), allowPositionals: true, strict: true });
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS')) throw parseError(command, error as Error & { code?: string });
    throw error;
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const rest = parsed.positionals.slice(1);
  if (values['help'] === true) {
    io.out(commandHelp(command));
    return 0;
  }
  if (command === 'help') {
    const about = rest[0];
    if (about === undefined) {
      io.out(USAGE);
      return 0;
    }
    if (!COMMANDS[about]) {
      const guess = SYNONYMS[about] ?? closest(about, Object.keys(COMMANDS));
      throw new ConfigError(`help: unknown command "${about}"${guess ? ` (did you mean ${guess}?)` : ''}; commands: ${Object.keys(COMMANDS).join(', ')}`);
    }
    if (rest.length > 1) throw new ConfigError(`help takes one command, got ${rest.length}: ${rest.join(' ')}`);
    io.out(commandHelp(about));
    return 0;
  }
  const allowed = spec.args?.length ?? 0;
  if (rest.length > allowed) {
    const extra = rest.slice(allowed);
    const hint = spec.options['workflow'] && values['workflow'] === undefined ? ` (did you mean --workflow ${extra[0]}?)` : extra.some((e) => e.includes(' ')) ? '' : ' (a value with spaces needs quotes)';
    throw new ConfigError(
      `${command} takes ${allowed === 0 ? 'no arguments' : `one argument (${spec.args!.map((a) => a.name).join(' ')})`} besides options; got ${extra.map((e) => `"${e}"`).join(' ')}${hint}; multihop ${command} --help lists its options`,
    );
  }

  const str = (name: string): string | undefined => values[name] as string | undefined;
  /** Whether the command line gave this option (its default does not count). */
  const given = (name: string): boolean => first.values[name] !== undefined;
  const list = (name: string): string[] => (values[name] as string[] | undefined) ?? [];
  const bool = (name: string): boolean => values[name] === true;
  const need = (name: string): string => {
    const value = str(name);
    if (!value) throw new ConfigError(`${command} needs --${name}${spec.options[name]?.arg ? ` ${spec.options[name]!.arg}` : ''}; multihop ${command} --help lists its options`);
    return value;
  };
  /** --`name`, or a message naming it and the `other` option that may stand in for it. */
  const needOneOf = (name: string, other: string): string => {
    const value = str(name);
    if (!value) throw new ConfigError(`${command} needs --${name} ${spec.options[name]?.arg ?? ''} or --${other} ${spec.options[other]?.arg ?? ''}; multihop ${command} --help lists its options`.replace(/ +;/, ';'));
    return value;
  };
  const int = (name: string, min?: number): number | undefined => {
    const value = str(name);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!/^\s*[+-]?\d+\s*$/.test(value) || !Number.isSafeInteger(n)) throw new ConfigError(`--${name} must be an integer, got "${value}"`);
    if (min !== undefined && n < min) throw new ConfigError(`--${name} must be ${min === 1 ? 'a positive integer' : min === 0 ? 'a non-negative integer' : `an integer of at least ${min}`}, got ${n}`);
    return n;
  };
  const num = (name: string): number | undefined => {
    const value = str(name);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) throw new ConfigError(`--${name} must be a number, got "${value}"`);
    return n;
  };
  const settingOf = () => parseSetting(str('setting'));
  /** --max-llm-calls, --max-tokens, --timeout: each run's Budget (undefined when none is given). */
  const budgetOf = (): Budget | undefined => {
    const maxLlmCalls = int('max-llm-calls', 1);
    const maxTokens = int('max-tokens', 1);
    const raw = str('timeout');
    let timeoutMs: number | undefined;
    if (raw !== undefined) {
      const seconds = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) throw new ConfigError(`--timeout must be a positive number of seconds, got "${raw}"`);
      timeoutMs = Math.max(1, Math.round(seconds * 1000));
      if (timeoutMs > 2 ** 31 - 1) throw new ConfigError(`--timeout must be at most ${Math.floor((2 ** 31 - 1) / 1000)} seconds (about 24 days), got ${raw}`);
    }
    const budget: Budget = {
      ...(maxLlmCalls !== undefined ? { maxLlmCalls } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    };
    return Object.keys(budget).length ? budget : undefined;
  };
  /** What eval and sweep share: the questions, the setting and corpus, the models, the output. */
  const evaluation = () => ({
    dataset: need('dataset'),
    limit: int('limit', 1),
    offset: int('offset', 0),
    part: str('part'),
    concurrency: int('concurrency', 1)!,
    // Given, --concurrency also bounds the model requests in flight (a single-slot server gets one at a time).
    ...(given('concurrency') ? { requestConcurrency: int('concurrency', 1)! } : {}),
    budget: budgetOf(),
    setting: settingOf(),
    model: str('model'),
    judge: str('judge'),
    out: str('out'),
    db: str('db'),
    cacheDir: str('cache'),
    corpus: str('corpus'),
    layout: str('layout'),
    skipInvalid: bool('skip-invalid'),
    set: list('set'),
    queue: str('queue'),
    store: str('store'),
    json: bool('json'),
  });

  switch (command) {
    case 'workflows':
      return await load.workflows().workflowsCommand(io, { json: bool('json') });
    case 'chart':
      return await load.chart().chartCommand(io, rest[0], str('format'), list('set'));
    case 'ingest':
      return await load.ingest().ingestCommand(io, {
        // A corpus file alone is ingested as `run --question ... --corpus FILE` searches it.
        ...(str('corpus') !== undefined && str('dataset') === undefined ? {} : { dataset: needOneOf('dataset', 'corpus') }),
        setting: settingOf(),
        db: str('db'),
        corpus: str('corpus'),
        layout: str('layout'),
        skipInvalid: bool('skip-invalid'),
        rebuild: bool('rebuild'),
      });
    case 'run':
      return await load.run().runCommand(io, {
        workflow: need('workflow'),
        question: str('question'),
        corpus: str('corpus'),
        dataset: str('dataset'),
        id: str('id'),
        model: str('model'),
        setting: settingOf(),
        db: str('db'),
        json: bool('json'),
        layout: str('layout'),
        skipInvalid: bool('skip-invalid'),
        set: list('set'),
        thread: str('thread'),
        checkpoints: str('checkpoints'),
        budget: budgetOf(),
      });
    case 'resume': {
      const thread = str('thread');
      if (rest[0] !== undefined && thread !== undefined && rest[0] !== thread) throw new ConfigError(`resume names two threads, ${rest[0]} and --thread ${thread}; give one`);
      return await load.resume().resumeCommand(io, { thread: rest[0] ?? thread, checkpoints: str('checkpoints'), json: bool('json') });
    }
    case 'threads': {
      const ids = str('delete')?.split(',').map((id) => id.trim()).filter(Boolean);
      if (str('delete') !== undefined && !ids?.length) throw new ConfigError('--delete needs thread ids, comma-separated (multihop threads lists them)');
      return await load.threads().threadsCommand(io, { checkpoints: str('checkpoints'), ...(ids ? { delete: ids } : {}), deleteFinished: bool('delete-finished'), json: bool('json') });
    }
    case 'eval':
      return await load.eval().evalCommand(io, { workflows: need('workflows'), ...evaluation() });
    case 'predict':
      return await load.predict().predictCommand(io, {
        workflows: need('workflows'),
        set: list('set'),
        dataset: need('dataset'),
        corpus: str('corpus'),
        setting: settingOf(),
        offset: int('offset', 0),
        limit: int('limit', 1),
        part: str('part'),
        concurrency: int('concurrency', 1)!,
        ...(given('concurrency') ? { requestConcurrency: int('concurrency', 1)! } : {}),
        budget: budgetOf(),
        model: str('model'),
        out: str('out'),
        db: str('db'),
        cacheDir: str('cache'),
        layout: str('layout'),
        skipInvalid: bool('skip-invalid'),
        json: bool('json'),
      });
    case 'sweep':
      return await load.sweep().sweepCommand(io, { workflow: need('workflow'), params: list('param'), ...evaluation() });
    case 'worker':
      return await load.worker().workerCommand(io, {
        queue: need('queue'),
        concurrency: int('concurrency', 1),
        rateLimit: str('rate-limit'),
        stalledAfter: int('stalled-after'),
        db: str('db'),
        idleExit: int('idle-exit'),
      });
    case 'train': {
      const from = list('from');
      return await load.train().trainCommand(io, {
        trainer: rest[0],
        // Which of --dataset and --from a trainer needs is the trainer's to say (the router reads --from).
        dataset: str('dataset'),
        from: from.length ? from : undefined,
        // Without a trainer, the command says which trainers there are before asking for --out.
        out: rest[0] === undefined ? '' : need('out'),
        // Undefined unless given: a trainer of evals refuses them rather than read their defaults.
        offset: given('offset') ? int('offset', 0) : undefined,
        limit: int('limit', 1),
        part: str('part'),
        ...(given('setting') ? { setting: settingOf() } : {}),
        model: str('model'),
        db: str('db'),
        flags: { alpha: num('alpha'), epochs: int('epochs', 1), seed: int('seed'), lambda: num('lambda') },
        set: list('set'),
      });
    }
    case 'evolve': {
      // A method that learns without weight updates (HERA): its own trainer, rounds as epochs,
      // a state directory the workflow loads with --set <workflow>.state=DIR.
      const workflowId = need('workflow');
      const datasetName = need('dataset');
      return await load.train().trainCommand(io, {
        trainer: undefined,
        workflow: workflowId,
        dataset: datasetName,
        out: str('out') ?? `.multihop/state/${workflowId}-${datasetName.replace(/[^\w.-]+/g, '_')}`,
        offset: int('offset', 0),
        limit: int('limit', 1),
        part: str('part'),
        setting: settingOf(),
        model: str('model'),
        db: str('db'),
        flags: { epochs: int('rounds', 1), seed: int('seed') },
        set: list('set'),
      });
    }
    case 'rollouts':
      need('group');
      return await load.rollouts().rolloutsCommand(io, {
        workflow: need('workflow'),
        dataset: need('dataset'),
        group: int('group'),
        temperature: num('temperature'),
        offset: int('offset', 0),
        limit: int('limit', 1),
        part: str('part'),
        out: need('out'),
        resume: bool('resume'),
        force: bool('force'),
        setting: settingOf(),
        model: str('model'),
        db: str('db'),
        sft: str('sft'),
      });
    case 'studio':
      return await load.studio().studioCommand(io, {
        port: int('port', 0),
        host: str('host'),
        open: bool('open'),
        evals: list('eval'),
        model: str('model'),
        db: str('db'),
      });
    case 'report':
      return await load.report().reportCommand(io, rest[0], str('out'));
    default:
      throw new ConfigError(`unknown command "${command}"`);
  }
}
