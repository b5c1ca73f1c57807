import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chart, RunResult } from '@multihop/core';
import { sharedDatasetsDir } from '@multihop/testing';
import { cli } from '../test/cli';

process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
const db = mkdtempSync(join(tmpdir(), 'multihop-cli-'));


describe('the multihop CLI', () => {
  it('lists the workflows with their engines and papers', async () => {
    const { code, out } = await cli('workflows');
    expect(code).toBe(0);
    for (const id of ['par2-rag', 'par2-coverage-anchor', 'par2-iterative-chain', 'direct', 'cot', 'single-turn-rag', 'ircot', 'react']) {
      expect(out).toMatch(new RegExp(`^${id}\\s+langgraph`, 'm'));
    }
    expect(out).toContain('PAR²-RAG: Planned Active Retrieval and Reasoning');
  });

  it('prints the chart of the real graph as Mermaid or JSON', async () => {
    const mermaid = await cli('chart', 'par2-rag');
    expect(mermaid.out).toMatch(/^flowchart TD/);
    expect(mermaid.out).toContain('-.->|"CONTINUE [escDecision]"|');
    expect(mermaid.out).toContain('-.->|"STOP [escDecision]"|');
    const json = await cli('chart', 'ircot', '--format', 'json');
    const chart = JSON.parse(json.out) as Chart;
    expect(chart.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['retrieve', 'reason', 'answer_at_bound']));
  });

  it('answers a dataset question with answer, evidence and trace, labelling the offline model', async () => {
    const { code, out } = await cli('run', '--workflow', 'par2-rag', '--dataset', 'hotpotqa-dev', '--id', '5a8c7595554299585d9e36b6', '--db', db);
    expect(code).toBe(0);
    expect(out).toContain('model: offline model (deterministic lexical stand-in, not a language model)');
    expect(out).toContain('Question: What government position was held by the woman who portrayed Corliss Archer');
    expect(out).toMatch(/Answer: {3}\S/);
    expect(out).toMatch(/Evidence \(\d+ passages\):\n {3}1\. /);
    expect(out).toMatch(/plan\s+▶/);
    expect(out).toMatch(/esc\s+◆ (CONTINUE|STOP)/);
    expect(out).toMatch(/Usage: \d+ model calls, \d+ tokens \(estimated/);
  });

  it('prints the RunResult as JSON with --json, and answers free text over an open corpus', async () => {
    const { out } = await cli('run', '--workflow', 'single-turn-rag', '--dataset', 'hotpotqa-dev', '--id', '5a8c7595554299585d9e36b6', '--db', db, '--json');
    const result = JSON.parse(out) as RunResult & { model: { default: string } };
    expect(result.workflowId).toBe('single-turn-rag');
    expect(result.evidenceIds).toHaveLength(5);
    expect(result.model.default).toBe('offline');
    const free = await cli('run', '--workflow', 'ircot', '--question', 'Which magazine was started first, Arthur\'s Magazine or First for Women?', '--corpus', 'hotpotqa-dev', '--db', db);
    expect(free.code).toBe(0);
    expect(free.out).toContain('corpus: hotpotqa-dev-open');
  });

  it('reranks PAR²-RAG’s retrievals with the model when --set par2-rag.rerankWith=llm, and with no model call by default', async () => {
    // HotpotQA train 5a77ec115542992a6e59dff7 ("If Gallu is a demon Lilu is what?").
    const args = ['run', '--workflow', 'par2-coverage-anchor', '--dataset', 'hotpotqa-train', '--id', '5a77ec115542992a6e59dff7', '--db', db, '--json'];
    const byModel = JSON.parse((await cli(...args, '--set', 'par2-coverage-anchor.rerankWith=llm')).out) as RunResult;
    expect(byModel.usage.byRole['reranker']?.calls).toBeGreaterThan(0);
    // The output records the settings it ran with, so a replay draws the chart they make.
    expect((byModel as RunResult & { settings?: Record<string, unknown> }).settings).toMatchObject({ rerankWith: 'llm', subQueries: 5 });
    expect(byModel.trace.filter((e) => e.kind === 'llm' && e.data['promptId'] === 'retriever.rerank').map((e) => e.node)).toEqual(expect.arrayContaining(['rerank_dedupe']));
    const lexical = JSON.parse((await cli(...args)).out) as RunResult;
    expect(lexical.usage.byRole['reranker']).toBeUndefined();
    expect(await cli(...args, '--set', 'par2-coverage-anchor.rerankWith=e5')).toMatchObject({ code: 2, err: expect.stringContaining('par2-coverage-anchor.rerankWith') });
  });

  it('says clearly what is wrong with a command', async () => {
    expect(await cli('run', '--workflow', 'nope', '--dataset', 'hotpotqa-dev', '--id', 'x')).toMatchObject({ code: 2, err: expect.stringMatching(/unknown workflow "nope"; known: (.*, )?opera, opera-no-plan, /) });
    expect(await cli('run', '--workflow', 'direct')).toMatchObject({ code: 2, err: expect.stringContaining('give --question') });
    expect(await cli('run', '--workflow', 'direct', '--dataset', 'hotpotqa-dev', '--id', 'no-such-id', '--db', db)).toMatchObject({
      code: 2,
      err: expect.stringContaining('no question with id "no-such-id"'),
    });
    expect(await cli('eval', '--workflows', 'direct,direct', '--dataset', 'hotpotqa-dev')).toMatchObject({ code: 2, err: expect.stringContaining('names "direct" twice') });
    expect(await cli('run', '--bogus')).toMatchObject({ code: 2, err: expect.stringContaining("run: unknown option '--bogus'; multihop run --help lists its options") });
    expect(await cli('run', '--out', 'x')).toMatchObject({ code: 2, err: expect.stringContaining("run: unknown option '--out' (--out is an option of eval, predict, sweep,") });
    expect(await cli('eval', '--workflow', 'direct')).toMatchObject({ code: 2, err: expect.stringContaining("eval: unknown option '--workflow' (did you mean --workflows? --workflow is an option of run,") });
    // ingest needs a dataset or a corpus file: the message names both.
    expect(await cli('ingest')).toMatchObject({ code: 2, err: expect.stringContaining('ingest needs --dataset <name|path> or --corpus FILE; multihop ingest --help lists its options') });
    // A command under the name other tools give it: pointed at this one's, which spelling alone would not find.
    expect(await cli('list')).toMatchObject({ code: 2, err: expect.stringContaining('unknown command "list" (did you mean workflows?)') });
    expect(await cli('evaluate')).toMatchObject({ code: 2, err: expect.stringContaining('(did you mean eval?)') });
    // An option with no command before it (multihop -v): named, with the way to the version and the commands.
    expect(await cli('-v')).toMatchObject({ code: 2, err: "multihop: '-v' but no command: multihop <command> [options]; multihop --help lists the commands, multihop --version prints the version\n" });
    // Two thread ids for one resume: refused rather than one silently chosen.
    expect(await cli('resume', 'q1', '--thread', 'q2')).toMatchObject({ code: 2, err: 'multihop: resume names two threads, q1 and --thread q2; give one\n' });
    // A missing value is named with this command's placeholder: eval's --out is a directory, report's a file.
    expect(await cli('eval', '--workflows', 'direct', '--dataset', 'hotpotqa-train', '--out')).toMatchObject({ code: 2, err: 'multihop: eval: --out needs a value (DIR)\n' });
    expect(await cli('report', 'x', '--out')).toMatchObject({ code: 2, err: 'multihop: report: --out needs a value (FILE.html)\n' });
    expect(await cli('run', '--workflow', 'direct', '--dataset', 'hotpotqa-dev', '--id', 'x', '--model', 'openai:')).toMatchObject({ code: 2, err: expect.stringContaining('--model: "openai:" names no model') });
  });
});
