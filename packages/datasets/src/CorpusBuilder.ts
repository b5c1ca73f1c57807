import type { CorpusPassage } from './Dataset';
import { passageId } from './passageId';
import { joinSentences, splitSentences } from '@multihop/lexical';

/** Pools paragraphs across questions, deduplicated by their stable id. */
export class CorpusBuilder {
  private readonly byId = new Map<string, CorpusPassage>();

  /** Adds a paragraph given as the dataset's own sentence list; returns its id. */
  addSentences(title: string, sentences: string[]): string {
    const clean = sentences.map((s) => s.trim());
    return this.put(title, joinSentences(sentences), clean);
  }

  /** Adds a paragraph given as prose; sentences come from splitSentences. */
  addText(title: string, text: string, id?: string): string {
    return this.put(title, text.trim(), splitSentences(text), id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  passages(): CorpusPassage[] {
    return [...this.byId.values()];
  }

  private put(title: string, text: string, sentences: string[], ownId?: string): string {
    const id = ownId ?? passageId(title, text);
    if (!this.byId.has(id)) this.byId.set(id, { id, title, text, sentences: sentences.length ? sentences : [text] });
    return id;
  }
}
