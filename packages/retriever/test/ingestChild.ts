// A second process for the cross-process tests: ingests the first <limit> HotpotQA dev questions
// into corpus "c" of the store at <uri>, then prints its report as JSON.
// With <killAfter> > 0 it kills itself with SIGKILL once that many passage rows are written: an
// ingest that never reaches its end, as `kill -9` or a crash leaves it.
// <keepOldVersionsMs> is passed to the ingest when given.
//   node -r @multihop/ts-register test/ingestChild.ts <uri> <limit> [killAfter] [keepOldVersionsMs]
import { loadDataset } from '@multihop/datasets';
import { CorpusStore } from '../src/CorpusStore';
import { datasetsDir } from './sharedData';

async function main(): Promise<void> {
  const [uri, limit, killAfter = '0', keepMs] = process.argv.slice(2);
  const dataset = await loadDataset('hotpotqa-dev', { datasetsDir, limit: Number(limit) });
  const store = await CorpusStore.open({ uri });
  const report = await store.ingest(dataset, {
    corpus: 'c',
    keepOldVersionsMs: keepMs === undefined ? undefined : Number(keepMs),
    batchSize: 100,
    onProgress: (p) => {
      if (Number(killAfter) > 0 && p.phase === 'write' && p.level === 'passage' && p.done >= Number(killAfter)) process.kill(process.pid, 'SIGKILL');
    },
  });
  store.close();
  process.stdout.write(JSON.stringify({ added: report.added, rows: report.manifest.counts.rows }));
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
