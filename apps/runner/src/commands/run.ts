import { ConfigError, type Query, type Question } from '@multihop/core';
import type { Io } from '../io';
import { openCorpus, type Setting } from '../corpus';
import { resolveModel } from '../model';
import { formatRun } from '../print';
import { findWorkflow } from '../workflows';

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
}

/** Runs one workflow on one question: a dataset question by id, or free text over a corpus (open setting). */
export async function runCommand(io: Io, options: RunCommandOptions): Promise<number> {
  const workflow = findWorkflow(options.workflow);
  if (options.question && (options.dataset || options.id)) throw new ConfigError('give either --question, or --dataset with --id, not both');
  if (!options.question && !(options.dataset && options.id)) throw new ConfigError('give --question "..." [--corpus <name|path>], or --dataset <name> --id <question id>');
  const model = resolveModel(options.model);
  const setting: Setting = options.question ? 'open' : (options.setting ?? 'closed');
  const corpus = await openCorpus({ dataset: options.question ? (options.corpus ?? 'hotpotqa-dev') : (options.dataset as string), setting, db: options.db });
  try {
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
      gold = found;
      query = { id: found.id, text: found.text, metadata: { dataset: corpus.dataset.name } };
    }
    const result = await workflow.run(query, { model: model.port, retriever: corpus.retrieverFor(query) });
    io.out(
      options.json
        ? JSON.stringify({ ...result, model: model.describe }, null, 2)
        : formatRun(result, { query, ...(gold ? { gold } : {}), workflowTitle: workflow.title, modelLabel: model.label, corpus: corpus.corpus }),
    );
    return result.status === 'error' ? 1 : 0;
  } finally {
    corpus.close();
  }
}
