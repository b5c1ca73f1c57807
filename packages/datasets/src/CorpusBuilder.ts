import type { CorpusPassage } from './Dataset';
import { passageId } from './passageId';
import { joinSentences, splitSentences } from '@multihop/lexical';

/**
 * Pools paragraphs across questions, deduplicated by their stable id, and by content: a paragraph
 * whose title and text a passage of the pool already has (a corpus file's, under the file's own
 * id) is that passage, so the pool holds it once and gold points at the copy retrieval finds.
 */
export class CorpusBuilder {
  private readonly byId = new Map<string, CorpusPassage>();
  /** passageId(title, text) → the id the pool holds that content under (itself, or a corpus file's own id). */
  private readonly byContent = new Map<string, string>();
  /** Passages whose sentences are a list the data gave (addSentences), not splitSentences' split. */
  private readonly listed = new Set<string>();

  /** Ids in insertion order, so a record that turns out invalid can take back what it added. */
  private readonly order: string[] = [];
  private titles?: Map<string, CorpusPassage[]>;
  private foldedTitles?: Map<string, CorpusPassage[]>;

  /** Adds a paragraph given as the dataset's own sentence list; returns its id. */
  addSentences(title: string, sentences: string[]): string {
    const clean = sentences.map((s) => s.trim());
    return this.put(title, joinSentences(sentences), clean, undefined, true);
  }

  /** Adds a paragraph given as prose; sentences come from splitSentences. */
  addText(title: string, text: string, id?: string): string {
    return this.put(title, text.trim(), splitSentences(text), id);
  }

  /** Adds a passage as it is (its id, title, text and sentences), unless its id is already pooled. */
  addPassage(passage: CorpusPassage): string {
    return this.put(passage.title, passage.text, passage.sentences, passage.id);
  }

  get(id: string): CorpusPassage | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get size(): number {
    return this.byId.size;
  }

  passages(): CorpusPassage[] {
    return [...this.byId.values()];
  }

  /** A point to roll back to: what a record adds before it is found invalid is taken back. */
  mark(): number {
    return this.order.length;
  }

  rollback(mark: number): void {
    for (const id of this.order.splice(mark)) {
      const passage = this.byId.get(id);
      this.byId.delete(id);
      this.listed.delete(id);
      const content = passage && passageId(passage.title, passage.text);
      if (content && this.byContent.get(content) === id) this.byContent.delete(content);
    }
    this.titles = this.foldedTitles = undefined;
  }


  /**
   * The passages of the pool with this title: exact matches, else matches ignoring case (links and
   * decompositions spell titles their own way: "The Cup (1999 Film)"), in pool order.
   */
  withTitle(title: string): CorpusPassage[] {
    if (!this.titles || !this.foldedTitles) {
      this.titles = new Map();
      this.foldedTitles = new Map();
      for (const p of this.byId.values()) {
        push(this.titles, p.title, p);
        push(this.foldedTitles, foldTitle(p.title), p);
      }
    }
    return this.titles.get(title) ?? this.foldedTitles.get(foldTitle(title)) ?? [];
  }

  /**
   * `ownSentences`: the sentences are the dataset's own list, which its supporting facts index; a
   * pooled passage with the same text whose sentences splitSentences made (a corpus file's) takes
   * them, so a fact's sentence index points at the sentence the dataset means. A passage that
   * already has a list of its own keeps it (two questions' copies of one paragraph: the first's).
   */
  private put(rawTitle: string, rawText: string, rawSentences: string[], ownId?: string, ownSentences = false): string {
    // One encoding of each text (NFC): a passage written with combining marks ("Malmo\u0308") is
    // searched, matched and answered from as the same passage written with composed letters.
    const [title, text, sentences] = [composed(rawTitle), composed(rawText), rawSentences.map(composed)];
    const content = passageId(title, text);
    const id = ownId ?? this.byContent.get(content) ?? content;
    const pooled = this.byId.get(id);
    if (!pooled) {
      this.byId.set(id, { id, title, text, sentences: sentences.length ? sentences : [text] });
      this.order.push(id);
      if (!this.byContent.has(content)) this.byContent.set(content, id);
      this.titles = this.foldedTitles = undefined;
    } else if (ownSentences && !this.listed.has(id) && sentences.length > 0) {
      pooled.sentences = sentences;
    }
    if (ownSentences) this.listed.add(id);
    return id;
  }
}

/** A title as titles are compared loosely: Unicode NFC, underscores as spaces, spaces collapsed, lower case. */
export const foldTitle = (title: string) => title.normalize('NFC').replace(/_/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();

function push(map: Map<string, CorpusPassage[]>, key: string, passage: CorpusPassage): void {
  const list = map.get(key);
  if (list) list.push(passage);
  else map.set(key, [passage]);
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** Non-ASCII text in Unicode's canonical composed form (NFC); ASCII text as it is. */
export const composed = (text: string): string => (NON_ASCII.test(text) ? text.normalize('NFC') : text);
