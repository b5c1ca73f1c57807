import assert from 'node:assert/strict';
import { main, type Io } from '@multihop/runner';

// The CLI from code: `main` takes the arguments after `multihop` and where to print.
async function run(...argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const io: Io = { out: (text) => void (out += `${text}\n`), err: (text) => void (out += `${text}\n`) };
  const code = await main(argv, io);
  return { code, out };
}

async function example(): Promise<void> {
  const workflows = await run('workflows'); // every installed method package's workflows
  console.log(workflows.out);
  assert.equal(workflows.code, 0);
  assert.match(workflows.out, /^par2-rag\s+langgraph/m);

  const chart = await run('chart', 'par2-rag', '--format', 'json'); // read off the compiled LangGraph graph
  assert.equal(chart.code, 0);
  assert.equal(JSON.parse(chart.out).engine, 'langgraph');
}

example().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
