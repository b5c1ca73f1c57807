import { Annotation, END, Send, START } from '@langchain/langgraph';
import { hotpotCases } from '../test/hotpot';
import { noModel } from '../test/coverageLoop';
import { append } from './append';
import { defineGraphWorkflow } from './defineGraphWorkflow';
import { last } from './last';
import { workflowGraph } from './workflowGraph';

const [c] = hotpotCases(1);

const State = Annotation.Root({
  question: Annotation<string>(),
  words: last<string[]>(() => []),
  word: last<string>(() => ''),
  titles: append<string>(),
  latest: last<string[]>(() => []),
});

function onePerWord(state: typeof State.State) {
  return state.words.map((word) => new Send('lookup', { question: state.question, word }));
}

const graph = workflowGraph(State)
  .node('split', (state) => {
    const words = state.question.split(/\s+/).filter((w) => /^[A-Z]/.test(w)).slice(0, 4);
    return { words, latest: words };
  })
  .node('lookup', async (state, { ctx }) => {
    const [hit] = await ctx.retriever.search(state.word, { k: 1 });
    return { titles: [hit!.title], latest: [state.word] };
  })
  .edge(START, 'split')
  .fanOut('split', onePerWord, ['lookup'])
  .edge('lookup', END)
  .compile();

const workflow = defineGraphWorkflow({
  id: 'channels',
  title: 'State channels',
  paper: 'none',
  graph,
  input: (query) => ({ question: query.text }),
  output: (state) => ({ answer: state.titles.join('; '), data: { titles: state.titles, latest: state.latest, words: state.words } }),
});

describe('state channels: last and append', () => {
  it('append keeps every parallel branch’s write; last keeps one value', async () => {
    const result = await workflow.run(c!.query, { model: noModel(), retriever: c!.retriever });
    const { titles, latest, words } = result.data as { titles: string[]; latest: string[]; words: string[] };
    expect(words.length).toBeGreaterThan(1);
    expect(titles).toHaveLength(words.length);
    for (const title of titles) expect(c!.titles).toContain(title);
    // The branches wrote `latest` in the same step: `last` keeps exactly one of their values.
    expect(latest).toHaveLength(1);
    expect(words).toContain(latest[0]);
  });

  it('refuses undefined as a channel’s initial value: LangGraph would read the channel as empty', () => {
    expect(() => last<string | undefined>(() => undefined)).toThrow(/use null/);
    expect(() => last<string | null>(() => null)).not.toThrow();
  });

  it('starts every run from a fresh default, so runs never share an array', async () => {
    const a = await workflow.run(c!.query, { model: noModel(), retriever: c!.retriever });
    (a.data!['titles'] as string[]).push('changed after the run');
    const b = await workflow.run(c!.query, { model: noModel(), retriever: c!.retriever });
    expect(b.data!['titles']).toEqual((a.data!['titles'] as string[]).slice(0, -1));
  });
});
