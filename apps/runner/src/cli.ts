import { parseArgs } from 'node:util';
import { MultihopError } from '@multihop/core';
import { chartCommand } from './commands/chart';
import { evalCommand } from './commands/eval';
import { ingestCommand } from './commands/ingest';
import { rolloutsCommand } from './commands/rollouts';
import { runCommand } from './commands/run';
import { workflowsCommand } from './commands/workflows';
import { parseSetting } from './corpus';
import { processIo, type Io } from './io';

export type { Io } from './io';

export const USAGE = `multihop — multi-agent RAG workflows for multi-hop QA (offline by default)

  multihop workflows
  multihop ingest --dataset <name|path> [--setting closed|open] [--db DIR]
  multihop run --workflow <id> (--question "..." [--corpus <name|path>] | --dataset <name|path> --id <qid>)
               [--setting closed|open] [--model offline|openai:<model>] [--db DIR] [--json]
  multihop eval --workflows <id,...> --dataset <name|path> [--limit N] [--concurrency K]
               [--setting closed|open] [--model ...] [--out DIR] [--cache DIR] [--db DIR]
  multihop chart <workflow> [--format mermaid|json]
  multihop rollouts --workflow opera --dataset <name|path> --group G [--limit N] --out FILE.jsonl
               [--setting closed|open] [--model ...] [--db DIR]

Datasets: hotpotqa-dev, 2wiki-dev, musique-dev, hotpotqa-train, musique-train (../shared/datasets), or a path.
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
  concurrency: { type: 'string' },
  out: { type: 'string' },
  cache: { type: 'string' },
  format: { type: 'string' },
  group: { type: 'string' },
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
    switch (command) {
      case 'workflows':
        return await workflowsCommand(io);
      case 'chart':
        return await chartCommand(io, rest[0], values.format);
      case 'ingest':
        return await ingestCommand(io, { dataset: need('dataset', values.dataset), setting: parseSetting(values.setting, 'open'), db: values.db });
      case 'run':
        return await runCommand(io, {
          workflow: need('workflow', values.workflow),
          question: values.question,
          corpus: values.corpus,
          dataset: values.dataset,
          id: values.id,
          model: values.model,
          setting: parseSetting(values.setting, 'closed'),
          db: values.db,
          json: values.json,
        });
      case 'eval':
        return await evalCommand(io, {
          workflows: need('workflows', values.workflows),
          dataset: need('dataset', values.dataset),
          limit: int('limit', values.limit),
          concurrency: int('concurrency', values.concurrency) ?? 2,
          setting: parseSetting(values.setting, 'closed'),
          model: values.model,
          out: values.out,
          db: values.db,
          cacheDir: values.cache,
        });
      case 'rollouts':
        return await rolloutsCommand(io, {
          workflow: need('workflow', values.workflow),
          dataset: need('dataset', values.dataset),
          group: int('group', need('group', values.group)),
          limit: int('limit', values.limit),
          out: need('out', values.out),
          setting: parseSetting(values.setting, 'closed'),
          model: values.model,
          db: values.db,
        });
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
