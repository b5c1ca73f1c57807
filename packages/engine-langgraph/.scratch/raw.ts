import { Annotation, END, Send, START, StateGraph } from '@langchain/langgraph';
const last = <T>(initial: () => T) => Annotation<T>({ reducer: (_, next) => next, default: initial });
const append = <T>() => Annotation<T[]>({ reducer: (a, b) => a.concat(b), default: () => [] });
const S = Annotation.Root({
  question: Annotation<string>(),
  subQueries: last<string[]>(() => []),
  branch: last<string | undefined>(() => undefined),
  candidates: append<string>(),
  context: last<string[]>(() => []),
  hop: last<number>(() => 0),
  verdict: last<string>(() => ''),
  queries: append<string>(),
  hops: append<number>(),
  exhausted: last<boolean>(() => false),
});
type T = typeof S.State;
const noop = async (_s: T) => ({});
function fanOut(s: T) { return s.subQueries.map((q) => new Send('retrieve', { question: s.question, branch: q })); }
function escDecision(s: T) { return s.hop < 2 ? 'CONTINUE' : 'STOP'; }
const g = new StateGraph(S)
  .addNode('plan', async () => ({ subQueries: ['a', 'b', 'c', 'd', 'e'] }))
  .addNode('retrieve', async (s: T) => ({ candidates: [s.branch!] }))
  .addNode('rerank_dedupe', noop)
  .addNode('anchor', async () => ({ hop: 1 }))
  .addNode('generate', noop)
  .addNode('esc', noop)
  .addNode('reformulate', noop)
  .addNode('chain_retrieve', async (s: T) => ({ hop: s.hop + 1 }))
  .addNode('final', noop)
  .addEdge(START, 'plan')
  .addConditionalEdges('plan', fanOut, ['retrieve'])
  .addEdge('retrieve', 'rerank_dedupe')
  .addEdge('rerank_dedupe', 'anchor')
  .addEdge('anchor', 'generate')
  .addEdge('chain_retrieve', 'generate')
  .addEdge('generate', 'esc')
  .addConditionalEdges('esc', escDecision, { CONTINUE: 'reformulate', STOP: 'final' })
  .addEdge('reformulate', 'chain_retrieve')
  .addEdge('final', END)
  .compile();
async function main() {
  const N = Number(process.argv[2] ?? 500);
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    for (let i = 0; i < N; i++) await g.invoke({ question: 'q' + i }, { configurable: { x: 1 }, recursionLimit: 40 });
    console.log('ms/run', ((performance.now() - t) / N).toFixed(3));
  }
}
main();
