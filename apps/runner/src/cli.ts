import { parseArgs } from 'node:util';
import { MultihopError } from '@multihop/core';
import type * as Chart from './commands/chart';
import type * as Eval from './commands/eval';
import type * as Ingest from './commands/ingest';
import type * as Report from './commands/report';
import type * as Resume from './commands/resume';
import type * as Rollouts from './commands/rollouts';
import type * as Run from './commands/run';
import type * as Studio from './commands/studio';
import type * as Sweep from './commands/sweep';
import type * as Train from './commands/train';
import type * as Worker from './commands/worker';
import type * as Workflows from './commands/workflows';
import { processIo, type Io } from './io';
import { parseSetting } from './setting';

// Each command loads what it needs when it runs: listing workflows must not load LanceDB, and
// nothing loads the OpenAI client unless a role selects it (see model.ts).
const commands = {
  chart: (): typeof Chart => require('./commands/chart'),
  eval: (): typeof Eval => require('./commands/eval'),
  ingest: (): typeof Ingest => require('./commands/ingest'),
  report: (): typeof Report => require('./commands/report'),
  resume: (): typeof Resume => require('./commands/resume'),
  rollouts: (): typeof Rollouts => require('./commands/rollouts'),
  run: (): typeof Run => require('./commands/run'),
  studio: (): typeof Studio => require('./commands/studio'),
  sweep: (): typeof Sweep => require('./commands/sweep'),
  train: (): typeof Train => require('./commands/train'),
  worker: (): typeof Worker => require('./commands/worker'),
  workflows: (): typeof Workflows => require('./commands/workflows'),
};

export type { Io } from './io';

export const USAGE = `multihop — multi-agent RAG workflows for multi-hop QA (offline by default)

  multihop workflows
  multihop ingest --dataset <name|path> [--corpus FILE] [--layout L] [--setting closed|open] [--db DIR]
  multihop run --workflow <id> (--question "..." [--corpus <name|path>] | --dataset <name|path> --id <qid> [--corpus FILE])
               [--setting closed|open] [--set <id>.<setting>=<value> ...] [--model offline|openai:<model>] [--db DIR] [--json]
               [--thread <id> [--checkpoints FILE|postgres://...]]
  multihop resume <thread id> [--checkpoints FILE|postgres://...] [--json]
  multihop eval --workflows <id,...> --dataset <name|path> [--offset M] [--limit N] [--concurrency K]
               [--setting open|closed] [--corpus FILE] [--layout L] [--skip-invalid] [--set <id>.<setting>=<value> ...]
               [--model ...] [--judge offline|openai:<model>] [--out DIR] [--cache DIR] [--db DIR]
               [--queue redis://HOST:PORT [--store postgres://...]]   (run the pairs on multihop worker processes)
  multihop worker --queue redis://HOST:PORT [--concurrency K] [--rate-limit N/1s] [--stalled-after S] [--db DIR] [--idle-exit S]
  multihop sweep --workflow <id> --param <setting>=<v1>,<v2>,... --dataset <name|path> [the options of eval]
  multihop train <trainer> --dataset <name|path>[,<name|path>...] --out FILE [--alpha A] [--epochs N] [--seed S] [--offset M] [--limit N]
               [--set <trainer>.<setting>=<value> ...] [--setting closed|open] [--model ...] [--db DIR]
  multihop train router --from <eval dir> [--from <eval dir> ...] --out FILE [--lambda L] [--seed S] [--set router.<setting>=<value> ...]
  multihop evolve --workflow <id> --dataset <name|path>[,...] [--rounds N] [--seed S] [--out DIR] [--limit N]
               [--set <trainer>.<setting>=<value> ...] [--model ...] [--db DIR]
  multihop chart <workflow> [--format mermaid|json] [--set <id>.<setting>=<value> ...]
  multihop rollouts --workflow <method> --dataset <name|path> --group G [--limit N] --out FILE.jsonl [--sft DIR]
               [--setting closed|open] [--model ...] [--db DIR]
  multihop studio [--port N] [--open] [--eval DIR ...] [--model ...] [--db DIR]
  multihop report <eval dir> [--out FILE.html]

Datasets: hotpotqa-dev, 2wiki-dev, musique-dev, hotpotqa-train, musique-train (../shared/datasets), or a path.
eval and sweep search the dataset's pooled corpus (open) unless --setting closed; answers are judged by
the judge role's model (PAR² A.2) unless --judge says otherwise.
Model: --model, else MULTIHOP_MODEL, else multihop.config.json, else the offline model.`;

const OPTIONS = {
  workflow: { type: 'string' },
  workflows: { type: 'string' },
  question: { type: 'string' },
  corpus: { type: 'string' },
  dataset: { type: 'string' },
  id: { type: 'string' },
  model: { type: 'string' },
  setting: { type: 'string' },
  db: { type: 'string' },
  json: { type: 'boolean', default: false },
  limit: { type: 'string' },
  offset: { type: 'string' },
  concurrency: { type: 'string' },
  out: { type: 'string' },
  cache: { type: 'string' },
  format: { type: 'string' },
  group: { type: 'string' },
  layout: { type: 'string' },
  'skip-invalid': { type: 'boolean', default: false },
  set: { type: 'string', multiple: true },
  judge: { type: 'string' },
  param: { type: 'string', multiple: true },
  alpha: { type: 'string' },
  epochs: { type: 'string' },
  seed: { type: 'string' },
  sft: { type: 'string' },
  rounds: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  open: { type: 'boolean', default: false },
  eval: { type: 'string', multiple: true },
  thread: { type: 'string' },
  checkpoints: { type: 'string' },
  queue: { type: 'string' },
  store: { type: 'string' },
  'rate-limit': { type: 'string' },
  'stalled-after': { type: 'string' },
  'idle-exit': { type: 'string' },
  from: { type: 'string', multiple: true },
  lambda: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The CLI: returns the exit code; errors of the project's own kinds print as one clear line. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const [command, ...rest] = positionals;
    if (values.help || !command) {
      io.out(USAGE);
      return command || values.help ? 0 : 2;
    }
    const int = (name: string, value: string | undefined): number | undefined => {
      if (value === undefined) return undefined;
      const n = Number(value);
      if (!Number.isInteger(n)) throw new MultihopError('CONFIG', `--${name} must be an integer, got "${value}"`);
      return n;
    };
    const need = (name: string, value: string | undefined): string => {
      if (!value) throw new MultihopError('CONFIG', `${command} needs --${name}\n\n${USAGE}`);
      return value;
    };
    /** What eval and sweep share: the questions, the setting and corpus, the models, the output. */
    const evaluation = () => ({
      dataset: need('dataset', values.dataset),
      limit: int('limit', values.limit),
      offset: int('offset', values.offset),
      concurrency: int('concurrency', values.concurrency) ?? 2,
      setting: parseSetting(values.setting, 'open'),
      model: values.model,
      judge: values.judge,
      out: values.out,
      db: values.db,
      cacheDir: values.cache,
      corpus: values.corpus,
      layout: values.layout,
      skipInvalid: values['skip-invalid'],
      set: values.set ?? [],
      queue: values.queue,
      store: values.store,
    });
    switch (command) {
      case 'workflows':
        return await commands.workflows().workflowsCommand(io);
      case 'chart':
        return await commands.chart().chartCommand(io, rest[0], values.format, values.set ?? []);
      case 'ingest':
        return await commands.ingest().ingestCommand(io, {
          dataset: need('dataset', values.dataset),
          setting: parseSetting(values.setting, 'open'),
          db: values.db,
          corpus: values.corpus,
          layout: values.layout,
          skipInvalid: values['skip-invalid'],
        });
      case 'run':
        return await commands.run().runCommand(io, {
          workflow: need('workflow', values.workflow),
          question: values.question,
          corpus: values.corpus,
          dataset: values.dataset,
          id: values.id,
          model: values.model,
          // Unset stays unset: run picks closed for a dataset question, open with --question or --corpus.
          setting: values.setting === undefined ? undefined : parseSetting(values.setting, 'closed'),
          db: values.db,
          json: values.json,
          layout: values.layout,
          skipInvalid: values['skip-invalid'],
          set: values.set ?? [],
          thread: values.thread,
          checkpoints: values.checkpoints,
        });
      case 'resume':
        return await commands.resume().resumeCommand(io, { thread: rest[0] ?? values.thread, checkpoints: values.checkpoints, json: values.json });
      case 'eval':
        return await commands.eval().evalCommand(io, { workflows: need('workflows', values.workflows), ...evaluation() });
      case 'sweep':
        return await commands.sweep().sweepCommand(io, { workflow: need('workflow', values.workflow), params: values.param ?? [], ...evaluation() });
      case 'worker':
        return await commands.worker().workerCommand(io, {
          queue: need('queue', values.queue),
          concurrency: int('concurrency', values.concurrency),
          rateLimit: values['rate-limit'],
          stalledAfter: int('stalled-after', values['stalled-after']),
          db: values.db,
          idleExit: int('idle-exit', values['idle-exit']),
        });
      case 'train': {
        const num = (name: string, value: string | undefined): number | undefined => {
          if (value === undefined) return undefined;
          const n = Number(value);
          if (value.trim() === '' || !Number.isFinite(n)) throw new MultihopError('CONFIG', `--${name} must be a number, got "${value}"`);
          return n;
        };
        return await commands.train().trainCommand(io, {
          trainer: rest[0],
          // A trainer that learns from finished evals (the router) reads --from instead of questions.
          dataset: values.from?.length ? values.dataset : need('dataset', values.dataset),
          from: values.from,
          out: need('out', values.out),
          offset: int('offset', values.offset),
          limit: int('limit', values.limit),
          setting: parseSetting(values.setting, 'closed'),
          model: values.model,
          db: values.db,
          flags: { alpha: num('alpha', values.alpha), epochs: int('epochs', values.epochs), seed: int('seed', values.seed), lambda: num('lambda', values.lambda) },
          set: values.set ?? [],
        });
      }
      case 'evolve': {
        // A method that learns without weight updates (HERA): its own trainer, rounds as epochs,
        // a state directory the workflow loads with --set <workflow>.state=DIR.
        const workflow = need('workflow', values.workflow);
        const dataset = need('dataset', values.dataset);
        return await commands.train().trainCommand(io, {
          trainer: undefined,
          workflow,
          dataset,
          out: values.out ?? `.multihop/state/${workflow}-${dataset.replace(/[^\w.-]+/g, '_')}`,
          offset: int('offset', values.offset),
          limit: int('limit', values.limit),
          setting: parseSetting(values.setting, 'closed'),
          model: values.model,
          db: values.db,
          flags: { epochs: int('rounds', values.rounds), seed: int('seed', values.seed) },
          set: values.set ?? [],
        });
      }
      case 'rollouts':
        return await commands.rollouts().rolloutsCommand(io, {
          workflow: need('workflow', values.workflow),
          dataset: need('dataset', values.dataset),
          group: int('group', need('group', values.group)),
          limit: int('limit', values.limit),
          out: need('out', values.out),
          setting: parseSetting(values.setting, 'closed'),
          model: values.model,
          db: values.db,
          sft: values.sft,
        });
      case 'studio':
        return await commands.studio().studioCommand(io, {
          port: int('port', values.port),
          host: values.host,
          open: values.open,
          evals: values.eval ?? [],
          model: values.model,
          db: values.db,
        });
      case 'report':
        return await commands.report().reportCommand(io, rest[0], values.out);
      default:
        io.err(`multihop: unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof MultihopError || (error as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS')) {
      io.err(`multihop: ${(error as Error).message}`);
      return 2;
    }
    throw error;
  }
}
