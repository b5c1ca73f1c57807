import { hotpotDevSample } from '@multihop/testing';
import { RunAbortedError } from './errors';
import { limitSearches, type RetrieverPort } from './retriever';

const [first] = hotpotDevSample(1);
if (!first) throw new Error('shared HotpotQA dev sample is missing');
const { question, passages } = first;

/** A store of your own over the question's real paragraphs that answers a search when told to, counting searches in flight. */
function slowStore() {
  const gates: Array<() => void> = [];
  const store = {
    inFlight: 0,
    most: 0,
    started: 0,
    /** Lets the oldest search in flight answer. */
    release: () => gates.shift()?.(),
    async search(query: string, options: { k?: number } = {}) {
      store.started++;
      store.most = Math.max(store.most, ++store.inFlight);
      await new Promise<void>((resolve) => gates.push(resolve));
      store.inFlight--;
      const words = new Set(query.toLowerCase().split(/\W+/));
      return passages
        .map((p) => ({ p, overlap: p.text.toLowerCase().split(/\W+/).filter((w) => words.has(w)).length }))
        .sort((a, b) => b.overlap - a.overlap)
        .slice(0, options.k ?? 5)
        .map(({ p, overlap }, i) => ({ ...p, rank: i + 1, score: overlap }));
    },
  };
  return store;
}

/** Lets the event loop run until nothing more happens on its own. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('limitSearches', () => {
  it('sends at most N searches at once, the rest in the order they came, each with its own hits', async () => {
    const store = slowStore();
    const limited: RetrieverPort = limitSearches(store, 2);
    const queries = [question.text, ...passages.slice(0, 4).map((p) => p.title)];
    const searches = queries.map((q) => limited.search(q, { k: 3 }));
    await settle();
    expect({ started: store.started, inFlight: store.inFlight }).toEqual({ started: 2, inFlight: 2 });
    while (store.started < queries.length || store.inFlight > 0) {
      store.release();
      await settle();
    }
    const hits = await Promise.all(searches);
    expect(store.most).toBe(2);
    // Each title search finds its own paragraph first: the answers were not mixed up in the queue.
    expect(hits.slice(1).map((h) => h[0]!.title)).toEqual(passages.slice(0, 4).map((p) => p.title));
    expect(hits.every((h) => h.length === 3)).toBe(true);
  });

  it("ends a search waiting for its slot as soon as its run's signal fires, and never sends it", async () => {
    const store = slowStore();
    const limited = limitSearches(store, 1);
    const running = limited.search(question.text);
    const controller = new AbortController();
    const waiting = limited.search(passages[0]!.title, { signal: controller.signal });
    await settle();
    controller.abort(new Error('run stopped'));
    await expect(waiting).rejects.toBeInstanceOf(RunAbortedError);
    store.release();
    await expect(running).resolves.toHaveLength(5);
    expect(store.started).toBe(1);
  });

  it('refuses a bound that is no positive whole number', () => {
    expect(() => limitSearches(slowStore(), 0)).toThrow('concurrency must be a positive integer, got 0');
  });
});
