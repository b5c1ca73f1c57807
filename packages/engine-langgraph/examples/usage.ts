import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Annotation, END, Send, START } from '@langchain/langgraph';
import { createModel, createScriptedProvider, toMermaid, type SearchHit } from '@multihop/core';
import { append, chartWalkProblems, defineGraphWorkflow, last, workflowGraph } from '@multihop/engine-langgraph';
import { openDatasetCorpus } from '@multihop/retriever';

// 1. The state: LangGraph's Annotation.Root with the engine's reducers (`last` keeps the latest
//    write, `append` collects every write, also those of parallel branches in one step).
const State = Annotation.Root({
  question: Annotation<string>(),
  names: last<string[]>(() => []),
  name: last<string>(() => ''),
  found: append<SearchHit>(),
  title: last<string>(() => ''),
});
type State = typeof State.State;

// 2. Routers are named functions: the name is the guard in the chart and in every transition.
function oneSearchPerName(state: State): Send[] {
  return state.names.map((name) => new Send('search', { question: state.question, name }));
}
function evidenceFound(state: State): 'ANSWER' | 'GIVE_UP' {
  return state.found.length > 0 ? 'ANSWER' : 'GIVE_UP';
}

// 3. The graph: each node is named once; its body gets the state and the run's runtime ({ ctx }).
const graph = workflowGraph(State)
  .node('extract', (state) => ({ names: state.question.match(/\b[A-Z][a-z]+(?: [A-Z][a-z]+)*/g)?.slice(0, 3) ?? [state.question] }))
  .node('search', async (state, { ctx }) => ({ found: await ctx.retriever.search(state.name, { k: 2 }) }), {
    enter: (state) => ({ name: state.name }),
  })
  .node('weigh', (state, { ctx }) => {
    ctx.decide(evidenceFound(state), { passages: state.found.length });
    return {};
  })
  .node('answer', (state, { ctx }) => {
    const best = [...state.found].sort((a, b) => b.score - a.score)[0]!;
    ctx.addEvidence(state.found, { query: state.question });
    return { title: best.title };
  })
  .edge(START, 'extract')
  .fanOut('extract', oneSearchPerName, ['search'])
  .edge('search', 'weigh')
  .route('weigh', evidenceFound, { ANSWER: 'answer', GIVE_UP: END })
  .edge('answer', END)
  .compile();

// 4. The workflow: input from the query, output from the final state, the chart from the graph.
const workflow = defineGraphWorkflow({
  id: 'title-lookup',
  title: 'Title lookup',
  paper: 'an example',
  graph,
  input: (query) => ({ question: query.text }),
  output: (state) => ({ answer: state.title }),
});

async function main(): Promise<void> {
  // A real HotpotQA question over its own ten paragraphs in an embedded LanceDB.
  const dir = await mkdtemp(join(tmpdir(), 'engine-langgraph-example-'));
  const corpus = await openDatasetCorpus('hotpotqa-dev', { setting: 'closed', uri: dir, load: { limit: 3 } });
  try {
    const question = corpus.dataset.questions[0]!;
    const result = await workflow.run(question, {
      model: createModel({ provider: createScriptedProvider({ replies: {} }) }), // this graph calls no model
      retriever: corpus.retriever.forQuestion(question.id),
    });

    console.log(question.text, '→', result.answer);
    console.log(toMermaid(workflow.chart()));
    // Every edge the run took, as a UI would light it up: `transition` events at their source node.
    const edges = result.trace
      .filter((e) => e.kind === 'transition')
      .map(({ data }) => `${data['from']} → ${data['to']}${data['guard'] ? ` [${data['guard']}${data['label'] ? `: ${data['label']}` : ''}]` : ''}`);
    console.log(edges.join('\n'));

    assert.equal(result.status, 'ok');
    assert.ok(result.evidenceIds.length > 0, 'the answer comes with its evidence');
    const branches = result.trace.filter((e) => e.kind === 'enter' && e.node === 'search').length;
    assert.equal(edges.filter((e) => e === 'extract → search [oneSearchPerName]').length, branches, 'one edge per Send branch');
    assert.deepEqual(chartWalkProblems(result.trace, workflow.chart()), [], 'the transitions walk the chart');
  } finally {
    corpus.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
