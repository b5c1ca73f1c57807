import type { CorpusPassage } from './Dataset';
import { passageId } from './passageId';
import { joinSentences, splitSentences } from '@multihop/lexical';

/** Pools paragraphs across questions, deduplicated by their stable id. */
export class CorpusBuilder {
  private readonly byId = new Map<string, CorpusPassage>();
  /** Ids in insertion order, so a record that turns out invalid can take back what it added. */
  private readonly order: string[] = [];
  private titles?: Map<string, CorpusPassage[]>;
  private foldedTitles?: Map<string, CorpusPassage[]>;

  /** Adds a paragraph given as the dataset's own sentence list; returns its id. */
  addSentences(title: string, sentences: string[]): string {
    const clean = sentences.map((s) => s.trim());
    return this.put(title, joinSentences(sentences), clean);
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
    for (const id of this.order.splice(mark)) this.byId.delete(id);
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
        push(this.foldedTitles, fold(p.title), p);
      }
    }
    return this.titles.get(title) ?? this.foldedTitles.get(fold(title)) ?? [];
  }

  private put(title: string, text: string, sentences: string[], ownId?: string): string {
    const id = ownId ?? passageId(title, text);
    if (!this.byId.has(id)) {
      this.byId.set(id, { id, title, text, sentences: sentences.length ? sentences : [text] });
      this.order.push(id);
      this.titles = this.foldedTitles = undefined;
    }
    return id;
  }
}

const fold = (title: string) => title.replace(/_/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();

function push(map: Map<string, CorpusPassage[]>, key: string, passage: CorpusPassage): void {
  const list = map.get(key);
  if (list) list.push(passage);
  else map.set(key, [passage]);
}
