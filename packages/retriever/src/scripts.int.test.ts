import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunkRows, CorpusStore } from './CorpusStore';
import { rankByBm25 } from './questionBm25';

// Text that is not in English's letters: the full-text index (LanceDB's tokenizer splits at spaces and
// punctuation) and the in-memory BM25 of closed corpora (the lexical tokens) must see the same words.
const passages = [
  { id: 'zh', title: '北京', text: '北京是中华人民共和国的首都，位于华北平原的北部。' },
  { id: 'zh-long', title: '长句', text: '中华人民共和国国务院总理由国家主席提名全国人民代表大会决定国家主席任命' },
  { id: 'ja', title: '東京タワー', text: '東京タワーは日本の電波塔で、設計者は内藤多仲です。' },
  { id: 'el', title: 'Αθήνα', text: 'Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.' },
  { id: 'nfd', title: 'Malmo\u0308', text: 'Malmo\u0308 lies on the O\u0308resund strait.' },
  { id: 'en', title: 'Pizza', text: 'Pizza is a dish from Naples.' },
].map((p) => ({ ...p, sentences: [p.text] }));

describe('a corpus in other scripts', () => {
  let store: CorpusStore;
  beforeAll(async () => {
    store = await CorpusStore.open({ uri: await mkdtemp(join(tmpdir(), 'multihop-scripts-')) });
    await store.ingestPassages(passages, { corpus: 'scripts', source: 'test' });
  });
  afterAll(() => store.close());

  // The full-text index on disk (the open setting), and the in-memory BM25 of a closed corpus over the same rows.
  const top = async (query: string) => {
    const index = (await (await store.retriever('scripts')).search(query, { k: 1 }))[0]?.id;
    const rows = passages.map((p) => chunkRows(p, 'passage', '')[0]!);
    const inMemory = rankByBm25(query, rows as unknown as Record<string, unknown>[])[0]?.['id'];
    return { index, inMemory };
  };

  it('finds a Chinese or Japanese passage by a word inside its sentences (they have no spaces), and a long sentence by its own text', async () => {
    expect(await top('首都')).toEqual({ index: 'zh', inMemory: 'zh' });
    expect(await top('中华人民共和国')).toEqual({ index: 'zh', inMemory: 'zh' });
    expect(await top('電波塔の設計者は誰ですか')).toEqual({ index: 'ja', inMemory: 'ja' });
    expect(await top('国务院总理由国家主席提名')).toEqual({ index: 'zh-long', inMemory: 'zh-long' });
  });

  it('reads a word the same with or without its accents and in either Unicode encoding', async () => {
    expect(await top('αθηνα')).toEqual({ index: 'el', inMemory: 'el' });
    expect(await top('Malmö')).toEqual({ index: 'nfd', inMemory: 'nfd' });
    expect(await top('Öresund')).toEqual({ index: 'nfd', inMemory: 'nfd' });
    expect(await top('Zu\u0308rich Pizza')).toEqual({ index: 'en', inMemory: 'en' });
  });
});
