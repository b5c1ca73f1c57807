import { main } from '@multihop/runner';

it('runs CLI commands from code', async () => {
  let printed = '';
  const io = { out: (text: string) => void (printed += `${text}\n`), err: (text: string) => void (printed += `${text}\n`) };
  const code = await main(['chart', 'par2-rag', '--format', 'json'], io);
  expect(code).toBe(0);
  expect(JSON.parse(printed).engine).toBe('langgraph');
});
