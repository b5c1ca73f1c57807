import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { didYouMean, InputError, type Question } from '@multihop/core';
import { ID_ALIASES_FILE, readAnswerAliases, type AnswerAliases } from './answerAliases';
import { composed, CorpusBuilder } from './CorpusBuilder';
import { describeLayouts, LAYOUTS, type CorpusFile, type Dataset, type Layout, type RecordProblem } from './Dataset';
import { detectLayout } from './detectLayout';
import { framesRecord } from './layouts/frames';
import { hfHotpotRecord } from './layouts/hfHotpot';
import { hotpotRecord } from './layouts/hotpot';
import { ircotRecord } from './layouts/ircot';
import type { GoldTitle, LayoutContext, RecordLoader } from './layouts/LayoutContext';
import { moreHopRecord } from './layouts/morehopqa';
import { musiqueRecord } from './layouts/musique';
import { plainRecord } from './layouts/plain';
import { qaRecord } from './layouts/qa';
import { loadCorpusFile } from './loadCorpus';
import { isDatasetName, NAMED_DATASETS } from './namedDatasets';
import { parseRecords, readText } from './readRecords';
import { resolveDatasetsDir } from './resolveDatasetsDir';
import { recordError, where } from './validateRecord';

export interface LoadDatasetOptions {
  /** Override layout detection (validated: an unknown name is an error listing the layouts). */
  layout?: Layout | string;
  /** A corpus file (needed for plain gold ids; for the others its passages join the open pool). */
  corpus?: string;
  /** Keep only the first `limit` questions (their paragraphs only, unless a corpus file is given). */
  limit?: number;
  /** Name of the dataset; defaults to the named dataset's name or the file's base name. */
  name?: string;
  /** Where the shared datasets folder is looked for (see resolveDatasetsDir). */
  datasetsDir?: string;
  /**
   * The setting the questions will be searched in. `closed` (the default, the strict reading): every
   * gold paragraph must be one of the question's own, or the record is invalid. `open`: gold outside
   * the question's context (HotpotQA fullwiki) is looked up by title in the whole pool.
   */
  setting?: 'open' | 'closed';
  /**
   * Leave invalid records out and list them in `skipped`, instead of failing on the first one.
   * The whole file is still parsed; a file whose records are all invalid still fails.
   */
  skipInvalid?: boolean;
  /**
   * 2WikiMultiHopQA's id-aliases file (`id_aliases.json`: one `{"Q_id", "aliases", "demonyms"}` a
   * line): each question whose `answer_id` it lists is scored against its answer, those aliases and
   * demonyms, as 2Wiki's official evaluation scores it. Default: the `id_aliases.json` beside the
   * question file, when there is one (where 2Wiki's release puts it) and the records carry
   * `answer_id`; `false` reads none.
   */
  answerAliases?: string | false;
  /**
   * `optional`: a question list whose records have no answer (a test split: `{id, question}` lines,
   * or a `question` column alone) loads, each such question with no gold (`hasGold` false), for
   * what answers without scoring (`multihop predict`, `run --id`). Default `required`: such a file
   * is refused, naming the commands that take it.
   */
  gold?: 'required' | 'optional';
}

const LOADERS: Record<Layout, RecordLoader> = {
  ircot: ircotRecord,
  hotpot: hotpotRecord,
  'hf-hotpot': hfHotpotRecord,
  musique: musiqueRecord,
  morehopqa: moreHopRecord,
  frames: framesRecord,
  qa: qaRecord,
  plain: plainRecord,
};

/** Where each layout keeps a question's text and id, for the error that says one is blank. */
const FIELDS: Record<Layout, { question: string; id: string }> = {
  ircot: { question: 'question_text', id: 'question_id' },
  hotpot: { question: 'question', id: '_id' },
  'hf-hotpot': { question: 'question', id: 'id' },
  musique: { question: 'question', id: 'id' },
  morehopqa: { question: 'question', id: '_id' },
  frames: { question: 'Prompt', id: 'id' },
  qa: { question: 'question', id: 'id' },
  plain: { question: 'question', id: 'id' },
};

/** How many skipped records an error or a summary quotes. */
const QUOTED = 3;

/** Validates a layout name given as text (a CLI flag); the error lists every layout and what it needs. */
export function parseLayout(value: string): Layout {
  if ((LAYOUTS as readonly string[]).includes(value)) return value as Layout;
  throw new InputError(`unknown layout "${value}"${didYouMean(value, LAYOUTS)}; the layouts and what each needs:\n${describeLayouts()}`, { field: 'layout' });
}

/**
 * A dataset argument that is neither a shared dataset's name nor an existing path: an InputError
 * listing the names (nearest first, as "did you mean") when it reads like a name, or naming the
 * path when it reads like one.
 */
function unknownDataset(nameOrPath: string, file: string): InputError {
  const names = Object.keys(NAMED_DATASETS);
  const near = didYouMean(nameOrPath, names);
  const listed = names.map((n) => `  ${n}: ${NAMED_DATASETS[n as keyof typeof NAMED_DATASETS].description}`).join('\n');
  const looksLikePath = /[\\/]/.test(nameOrPath) || /\.(jsonl|json|csv|tsv)$/i.test(nameOrPath);
  if (looksLikePath) {
    return new InputError(`dataset file ${file} does not exist${near ? `; or a shared dataset${near}` : ''}`, { file, field: 'dataset' });
  }
  return new InputError(
    `unknown dataset "${nameOrPath}"${near}: it is neither a shared dataset nor a file (${file} does not exist). The shared datasets:\n${listed}`,
    { field: 'dataset' },
  );
}

/**
 * Loads a named shared dataset (`hotpotqa-dev`, `2wiki-dev`, `musique-dev`, `hotpotqa-train`,
 * `musique-train`) or any file path, into core Questions plus the pooled corpus. Every record is
 * validated before anything is returned: an invalid record fails the load (naming its file, line and
 * field) unless `skipInvalid` is set, when it is left out and listed in `skipped`.
 */
export async function loadDataset(nameOrPath: string, options: LoadDatasetOptions = {}): Promise<Dataset> {
  let file: string;
  let layout = options.layout === undefined ? undefined : parseLayout(options.layout);
  let name = options.name;
  let sourceSha1: string | undefined;
  if (isDatasetName(nameOrPath)) {
    const named = NAMED_DATASETS[nameOrPath];
    file = join(options.datasetsDir ?? resolveDatasetsDir(), named.file);
    layout ??= named.layout;
    name ??= nameOrPath;
  } else {
    file = resolve(nameOrPath);
    if (!existsSync(file)) throw unknownDataset(nameOrPath, file);
    name ??= basename(file).replace(/\.(jsonl|json|csv|tsv)$/i, '');
  }
  // A broken JSONL line is one more invalid record: reported with the others, skipped with `skipInvalid`.
  const text = await readText(file);
  const all = parseRecords(text, file, { keepBrokenLines: true });
  // A file given by path is known by its content too (hashed as a corpus file is, from the text read once).
  if (!isDatasetName(nameOrPath)) sourceSha1 = createHash('sha1').update(text).digest('hex');
  const readable = all.filter((r) => !r.broken);
  if (readable.length === 0 && all[0]?.broken) throw all[0].broken;
  const goldOptional = options.gold === 'optional';
  layout ??= detectLayout(readable, file, { goldOptional });

  const corpus = new CorpusBuilder();
  let corpusFile: CorpusFile | undefined;
  let corpusFileWarnings: string[] = [];
  if (options.corpus) {
    const loaded = await loadCorpusFile(options.corpus, corpus);
    corpusFile = { path: loaded.path, sha1: loaded.sha1, passages: loaded.passages };
    corpusFileWarnings = loaded.warnings;
  }
  const setting = options.setting ?? 'closed';
  const warnings: string[] = [];
  const problems: RecordProblem[] = [];
  const loaded: Array<{ question: Question; line: number; goldTitles?: GoldTitle[]; answerId?: string }> = [];
  const contexts: Record<string, string[]> = {};
  const ids = new Set<string>();
  const unanswerable: number[] = [];
  const factWarnings: string[] = [];
  // Questions whose context is empty, and paragraphs of a context that have no text.
  const bare: Array<{ id: string; line: number }> = [];
  const empty: Array<{ id: string; line: number; title: string }> = [];
  const loader = LOADERS[layout];
  let firstError: InputError | undefined;
  // `limit` counts questions (an invalid record among them), not MuSiQue-Full's unanswerable twins.
  const limit = options.limit === undefined ? Infinity : Math.max(0, options.limit);
  let read = 0;
  for (const [index, record] of all.entries()) {
    if (loaded.length + problems.length >= limit) break;
    read++;
    const mark = corpus.mark();
    const recordWarnings: string[] = [];
    const ctx: LayoutContext = { file, corpus, warnings: recordWarnings, setting, index, ...(goldOptional ? { goldOptional } : {}) };
    try {
      if (record.broken) throw record.broken;
      const result = loader(record, ctx);
      if (result.unanswerable) {
        // MuSiQue-Full's twin, which shares its answerable question's id: scored on nothing
        // (MuSiQue's evaluator scores answers and support on answerable questions only), so left
        // out with its paragraphs, and counted.
        corpus.rollback(mark);
        unanswerable.push(record.line);
        continue;
      }
      const id = result.question.id;
      // A blank question would be sent to the model and scored wrong; a blank id names no trace file and no --id.
      if (!result.question.text.trim()) throw recordError(record, file, FIELDS[layout].question, 'is empty');
      if (!id.trim()) throw recordError(record, file, FIELDS[layout].id, 'is empty');
      if (ids.has(id)) throw new InputError(`${where(record, file)}: field \`id\`: question id "${id}" appears twice`, { file, line: record.line, field: 'id' });
      ids.add(id);
      result.question.dataset = name;
      loaded.push({ question: result.question, line: record.line, goldTitles: result.goldTitles, answerId: result.answerId });
      if (result.context) {
        contexts[id] = result.context;
        if (result.context.length === 0) bare.push({ id, line: record.line });
        for (const pid of result.context) {
          const passage = corpus.get(pid);
          if (passage && !passage.text.trim()) empty.push({ id, line: record.line, title: passage.title });
        }
      }
      warnings.push(...recordWarnings);
      factWarnings.push(...recordWarnings);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      // What the invalid record added to the pool goes with it.
      corpus.rollback(mark);
      firstError ??= error;
      problems.push({ line: error.location.line ?? record.line, field: error.location.field, message: error.message });
    }
  }
  if (firstError && (!options.skipInvalid || loaded.length === 0)) {
    throw new InputError(
      `${firstError.message}\n${problems.length} of ${read} records of ${file} are invalid${quote(problems.slice(1))}` +
        (loaded.length > 0 ? `; \`skipInvalid\` (--skip-invalid) loads the ${loaded.length} valid ones and reports the rest` : ' (is the layout right? it was read as ' + layout + ')'),
      firstError.location,
      { cause: firstError },
    );
  }
  if (problems.length > 0) warnings.push(`${file}: skipped ${problems.length} invalid record${problems.length === 1 ? '' : 's'} of ${read}${quote(problems)}`);

  const contentWarnings = emptyContentWarnings(file, setting, bare, empty);
  if (unanswerable.length > 0) {
    const lines = unanswerable.slice(0, 3).map((l) => `line ${l}`).join(', ') + (unanswerable.length > 3 ? ', ...' : '');
    const left = `${file}: left out ${unanswerable.length} unanswerable question${unanswerable.length === 1 ? '' : 's'} (\`answerable: false\`: ${lines}), as MuSiQue's evaluator scores answers only on answerable ones; ${loaded.length} answerable question${loaded.length === 1 ? '' : 's'} loaded`;
    contentWarnings.push(left);
  }
  // The records' own warnings (a supporting fact whose sentence is out of range), summed up in
  // one content warning with the first few, so a command shows them; `warnings` keeps each.
  if (factWarnings.length > 0) {
    contentWarnings.push(`${file}: ${factWarnings.length} supporting fact${factWarnings.length === 1 ? '' : 's'} could not be mapped to a sentence (their paragraphs are still gold): ${factWarnings.slice(0, 2).map((w) => w.replace(`${file}:`, 'line ')).join('; ')}${factWarnings.length > 2 ? '; ...' : ''}`);
  }
  if (corpusFile) contentWarnings.unshift(...corpusFileWarnings);
  warnings.push(...contentWarnings);
  const unresolvedGold = resolveGoldTitles(loaded, corpus, file, warnings);
  const answerAliases = applyAnswerAliases(loaded, file, options.answerAliases);
  // Questions and gold answers in the passages' encoding (NFC, as CorpusBuilder stores them).
  const questions = loaded.map((l) => composedQuestion(l.question));
  if (corpus.size === 0) {
    warnings.push(`${file}: closed-book: the questions bring no passages and no corpus file was given, so there is nothing to search (pass a corpus file to search one)`);
  }
  return {
    name,
    source: file,
    ...(sourceSha1 ? { sourceSha1 } : {}),
    layout,
    questions,
    passages: corpus.passages(),
    contexts,
    warnings,
    contentWarnings,
    skipped: problems,
    unresolvedGold,
    ...(corpusFile ? { corpusFile } : {}),
    ...(answerAliases ? { answerAliases } : {}),
  };
}

/**
 * Adds each question's aliases from an id-aliases file (the option's, or the id_aliases.json beside
 * the question file when its records carry `answer_id`) to its gold answers. Returns what was read,
 * with the questions that gained an alias.
 */
function applyAnswerAliases(loaded: ReadonlyArray<{ question: Question; answerId?: string }>, file: string, option: string | false | undefined): Dataset['answerAliases'] {
  if (option === false) return undefined;
  const keyed = loaded.filter((l) => l.answerId !== undefined);
  let aliases: AnswerAliases;
  if (option === undefined) {
    const beside = join(dirname(file), ID_ALIASES_FILE);
    if (keyed.length === 0 || !existsSync(beside)) return undefined;
    aliases = readAnswerAliases(beside);
  } else {
    const path = resolve(option);
    if (!existsSync(path)) throw new InputError(`answer aliases ${option}: no such file`, { file: path });
    if (keyed.length === 0) throw new InputError(`answer aliases ${option}: the questions of ${file} carry no \`answer_id\` (2WikiMultiHopQA's field) to look aliases up by`, { file });
    aliases = readAnswerAliases(path);
  }
  const questionIds: string[] = [];
  for (const { question, answerId } of keyed) {
    const names = (aliases.byId.get(answerId!) ?? []).filter((a) => a !== question.answer && !question.aliases.includes(a));
    if (names.length === 0) continue;
    question.aliases = [...question.aliases, ...names];
    questionIds.push(question.id);
  }
  return { path: aliases.path, sha1: aliases.sha1, questionIds };
}

/** One warning per kind of empty content: questions without paragraphs, paragraphs without text. */
function emptyContentWarnings(
  file: string,
  setting: 'open' | 'closed',
  bare: Array<{ id: string; line: number }>,
  empty: Array<{ id: string; line: number; title: string }>,
): string[] {
  const out: string[] = [];
  const more = (n: number) => (n > QUOTED ? `, … and ${n - QUOTED} more` : '');
  if (bare.length > 0) {
    const shown = bare.slice(0, QUOTED).map((b) => `question ${b.id} (${file}:${b.line})`).join(', ');
    out.push(
      `${file}: ${bare.length} question${bare.length === 1 ? ' brings' : 's bring'} no paragraphs (an empty context): ${shown}${more(bare.length)}; ` +
        (setting === 'closed' ? 'in the closed setting retrieval finds nothing for them' : 'they are searched in the pool of the other questions’ paragraphs'),
    );
  }
  if (empty.length > 0) {
    const shown = empty.slice(0, QUOTED).map((e) => `"${e.title}" of question ${e.id} (${file}:${e.line})`).join(', ');
    out.push(`${file}: ${empty.length} paragraph${empty.length === 1 ? ' has' : 's have'} no text: ${shown}${more(empty.length)}; kept, but only their titles can be found`);
  }
  return out;
}

function quote(problems: RecordProblem[]): string {
  if (problems.length === 0) return '';
  const shown = problems.slice(0, QUOTED).map((p) => `\n  ${p.message.split('\n')[0]}`);
  return `:${shown.join('')}${problems.length > QUOTED ? `\n  … and ${problems.length - QUOTED} more` : ''}`;
}

/**
 * Gold named by title (FRAMES links, FlashRAG supporting facts, HotpotQA fullwiki facts outside the
 * question's context in the open setting) resolved against the whole pool: the first passage with
 * that title (a Wikipedia article's lead paragraph, which chunked dumps list first), matched exactly,
 * else ignoring case and underscores. Titles found nowhere are returned per question and summed up in
 * one warning; they stay out of `supportingIds`, so retrieval metrics score only gold the corpus holds.
 */
function resolveGoldTitles(loaded: Array<{ question: Question; line: number; goldTitles?: GoldTitle[] }>, corpus: CorpusBuilder, file: string, warnings: string[]): Record<string, string[]> {
  const unresolved: Record<string, string[]> = {};
  let found = 0;
  let missing = 0;
  const examples: string[] = [];
  for (const { question, line, goldTitles } of loaded) {
    for (const gold of goldTitles ?? []) {
      const passage = corpus.withTitle(gold.title)[0];
      if (passage) {
        found++;
        if (!question.supportingIds.includes(passage.id)) question.supportingIds.push(passage.id);
        if (gold.sentence !== undefined && gold.sentence >= 0 && gold.sentence < passage.sentences.length) {
          (question.supportingSentences ??= []).push({ passageId: passage.id, sentence: gold.sentence });
        }
        continue;
      }
      missing++;
      const list = (unresolved[question.id] ??= []);
      if (!list.includes(gold.title)) list.push(gold.title);
      if (examples.length < QUOTED) examples.push(`"${gold.title}" (${file}:${line}, question ${question.id})`);
    }
  }
  if (missing > 0) {
    const questions = Object.keys(unresolved).length;
    warnings.push(
      `${file}: ${missing} gold title${missing === 1 ? '' : 's'} of ${questions} question${questions === 1 ? '' : 's'} match no passage of the pool${found ? ` (${found} did)` : ''}; ` +
        `retrieval metrics count only the gold the corpus holds (a question with none has no retrieval scores); e.g. ${examples.join(', ')}`,
    );
  }
  return unresolved;
}

/** A question's text, gold answers and decomposition in NFC (see `composed`). */
function composedQuestion(question: Question): Question {
  const out: Question = { ...question, text: composed(question.text), answer: composed(question.answer), aliases: question.aliases.map(composed) };
  if (question.decomposition) out.decomposition = question.decomposition.map((step) => ({ ...step, question: composed(step.question), answer: composed(step.answer) }));
  return out;
}
