import { existsSync } from 'node:fs';
import { ConfigError, didYouMean, goldAnswers, type Budget, type Query, type Question, type Workflow } from '@multihop/core';
import { checkpointsLocation, openThread, type DurableThread } from '../threads';
import { hasGold, isCorpusFile, isDatasetName, NAMED_DATASETS, readRecords } from '@multihop/datasets';
import { sayOnInterrupt, type Io } from '../io';
import { openCorpus, type Setting } from '../corpus';
import { scoreRun } from '../eval/scoreRun';
import { DEFAULT_SETTING } from '../setting';
import { rolesCalled } from '../methods';
import { modelFor, resolveModel, type RunnerModel } from '../model';
import { formatRun } from '../print';
import { findWorkflow } from '../workflows';
import { settingAssignments } from '../workflowSettings';

export interface RunCommandOptions {
  workflow: string;
  question?: string;
  corpus?: string;
  dataset?: string;
  id?: string;
  model?: string;
  setting?: Setting;
  db?: string;
  json: boolean;
  layout?: string;
  skipInvalid?: boolean;
  set?: string[];
  /** Record the run's checkpoints under this thread id, so `multihop resume <id>` can continue it. */
  thread?: string;
  /** The checkpoint store: a SQLite file (default .multihop/checkpoints.sqlite) or a postgres:// URL. */
  checkpoints?: string;
  /** The run's budget (--max-llm-calls, --max-tokens, --timeout): reaching it stops the run, status partial. */
  budget?: Budget;
}

/** Runs one workflow on one question: a dataset question by id, or free text over a corpus (open setting). */
export async function runCommand(io: Io, options: RunCommandOptions): Promise<number> {
  const { workflow, entry, settings } = findWorkflow(options.workflow, settingAssignments(options.set));
  if (options.question !== undefined) checkQuestion(options.question);
  if (options.question && (options.dataset || options.id)) throw new ConfigError('give either --question, or --dataset with --id, not both');
  // Free text brings no paragraphs of its own to close the search on: it searches the open pool, so an explicit closed is refused, not ignored.
  if (options.question !== undefined && options.setting === 'closed') {
    throw new ConfigError('--setting closed gives a dataset question only its own paragraphs, but free text (--question) has none: it searches the open pool; drop --setting closed, or run a dataset question with --dataset <name> --id <question id>');
  }
  if (!options.question && !(options.dataset && options.id)) throw new ConfigError('give --question "..." [--corpus <name|path>], or --dataset <name> --id <question id>');
  // The model as this workflow's run sees it: a per-role model for a role it never calls is not named.
  const roles = rolesCalled([workflow]);
  const model = modelFor(resolveModel(options.model), roles);
  // A corpus file only makes sense in a pool: free text, or a dataset question with --corpus, runs open.
  if (options.corpus && options.setting === 'closed') {
    throw new ConfigError('--corpus gives every question one shared corpus (the open setting); drop --setting closed, or drop --corpus to search the question\'s own paragraphs');
  }
  const setting: Setting = options.question || options.corpus ? 'open' : (options.setting ?? DEFAULT_SETTING);
  // A bad --thread or --checkpoints is one line now, before the corpus is opened (an ingest can take minutes).
  const durable = options.thread ? await openThread(io, options, model.describe, roles) : undefined;
  const quiet = sayOnInterrupt(io, () =>
    options.thread
      ? `run: interrupted; the steps it finished are kept in thread ${options.thread} (${checkpointsLocation(options.checkpoints)}): multihop resume ${options.thread} continues it`
      : 'run: interrupted; nothing is kept (a run given --thread <id> keeps its steps, and multihop resume <id> continues it)',
  );
  try {
    return await runOnCorpus(io, options, { workflow, entry, settings, model, setting, durable });
  } catch (error) {
    // A mistyped --id leaves no thread behind: the corrected command may take the same --thread.
    await durable?.discardIfUnused().catch(() => undefined);
    throw error;
  } finally {
    quiet();
    await durable?.close();
  }
}

interface Resolved {
  workflow: Workflow;
  /** `searches: false`: a closed-book workflow, scored with no retrieval metrics. */
  entry: { searches?: boolean };
  /** The workflow's settings as configured (defaults and --set): a replay draws the chart they make. */
  settings: Record<string, unknown>;
  model: RunnerModel;
  setting: Setting;
  durable: DurableThread | undefined;
}

async function runOnCorpus(io: Io, options: RunCommandOptions, { workflow, entry, settings, model, setting, durable }: Resolved): Promise<number> {
  // A question of a test split (no gold) runs too: it is shown and scored against nothing.
  const corpus = await openCorpus({ ...(await whatToSearch(options)), setting, db: options.db, layout: options.layout, skipInvalid: options.skipInvalid, goldOptional: true });
  try {
    for (const notice of corpus.notices) io.err(notice);
    // Free text has no gold; a dataset question's gold stays here, for the report: the run gets the query only.
    let query: Query;
    let gold: Question | undefined;
    if (options.question) {
      query = { id: 'cli', text: options.question };
    } else {
      const found = corpus.dataset.questions.find((q) => q.id === options.id);
      if (!found) {
        throw new ConfigError(`no question with id "${options.id}" in ${corpus.dataset.source} (e.g. ${corpus.dataset.questions.slice(0, 3).map((q) => q.id).join(', ')})`);
      }
      if (hasGold(found)) gold = found;
      query = { id: found.id, text: found.text, metadata: { dataset: corpus.dataset.name } };
    }
    durable?.begin();
    const result = await workflow.run(query, {
      model: model.port,
      retriever: corpus.retrieverFor(query),
      ...(options.budget ? { budget: options.budget } : {}),
      ...(durable ? { durable: durable.options, signal: durable.signal } : {}),
    });
    await durable?.end(result);
    io.out(
      options.json
        ? JSON.stringify(
            {
              ...result,
              settings,
              model: model.describe,
              // A dataset question's gold and the run's scores against it (EM/F1/accuracy, recall@5, NDCG@5, All-Pass).
              ...(gold ? { gold: { answers: goldAnswers(gold), supportingIds: gold.supportingIds }, metrics: scoreRun(result, gold, entry) } : {}),
            },
            null,
            2,
          )
        : formatRun(result, { query, ...(gold ? { gold } : {}), workflowTitle: workflow.title, modelLabel: model.label, corpus: corpus.corpus }),
    );
    return result.status === 'error' ? 1 : 0;
  } finally {
    corpus.close();
  }
}

/**
 * `--dataset X --id Q [--corpus FILE]`: the dataset, its pool joined by the corpus file. `--question`
 * with `--corpus`: a corpus file is searched alone; a shared dataset name or a question file (its
 * paragraphs) as before. `--question` alone searches hotpotqa-dev's pool.
 */
async function whatToSearch(options: RunCommandOptions): Promise<{ dataset?: string; corpus?: string }> {
  if (!options.question) return { dataset: options.dataset, corpus: options.corpus };
  const given = options.corpus ?? 'hotpotqa-dev';
  if (isDatasetName(given)) return { dataset: given };
  if (!existsSync(given)) {
    const names = Object.keys(NAMED_DATASETS);
    throw new ConfigError(`--corpus ${given}: neither a shared dataset nor a file${didYouMean(given, names)}; the shared datasets: ${names.join(', ')}`);
  }
  if (await isCorpusFile(given)) return { corpus: given };
  // Passages without titles (a BEIR or chunk dump's {text} or {id, text}): the user meant a corpus, so say what a corpus record needs.
  const first = (await readRecords(given))[0];
  const fields = first?.value && typeof first.value === 'object' && !Array.isArray(first.value) ? Object.keys(first.value) : [];
  if (fields.some((f) => ['text', 'passage', 'contents', 'paragraph_text'].includes(f)) && !fields.some((f) => ['question', 'question_text', 'query', 'Question', 'Prompt'].includes(f))) {
    throw new ConfigError(
      `--corpus ${given}:${first!.line}: its records have fields [${fields.join(', ')}] and no title: a corpus record is {title, text}, {title, passage}, {id, contents} ("Title\nText"), or the file one {title: [sentences]} object; a question file has a question field`,
    );
  }
  return { dataset: given };
}

/** The longest free-text question sent to a model unless MULTIHOP_MAX_QUESTION_CHARS says otherwise. */
export const DEFAULT_MAX_QUESTION_CHARS = 4000;

/** A --question that is blank, or longer than the limit, is refused before any model call. */
export function checkQuestion(question: string, env: NodeJS.ProcessEnv = process.env): void {
  if (!question.trim()) throw new ConfigError('--question is blank: give the question\'s text, e.g. --question "Who directed Moonfall Harbor?"');
  const raw = env['MULTIHOP_MAX_QUESTION_CHARS'];
  const max = raw === undefined || raw.trim() === '' ? DEFAULT_MAX_QUESTION_CHARS : Number(raw);
  if (!Number.isInteger(max) || max < 1) throw new ConfigError(`MULTIHOP_MAX_QUESTION_CHARS must be a positive integer, got "${raw}"`);
  if (question.length > max) {
    throw new ConfigError(
      `--question is ${question.length} characters, over the limit of ${max}; shorten it, or raise the limit with MULTIHOP_MAX_QUESTION_CHARS=<characters>`,
    );
  }
}
