/**
 * `npm run bench:queue`: the wall time of one eval of 200 HotpotQA questions (single-turn RAG)
 * run by 1 and then by 2 `multihop worker` processes taking the pairs from a BullMQ queue, with a
 * model that answers every call after 200 ms: a local OpenAI wire-format server on 127.0.0.1
 * (@multihop/testing), the model a real deployment waits on. Both runs in one process, on one
 * real redis-server (started here, apt-installed when missing), the corpus ingested beforehand;
 * prints both times and their ratio. Flags: --questions=200 --latency=200 --concurrency=4
 * (pairs in flight per worker).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDatasetsDir, startOpenAICompatibleServer, startRedis } from '@multihop/testing';
import { benchFlags } from './flags';

const args = benchFlags({ questions: 'count', concurrency: 'count', latency: 'number' });
const QUESTIONS = Number(args['questions'] ?? 200);
const LATENCY_MS = Number(args['latency'] ?? 200);
const CONCURRENCY = Number(args['concurrency'] ?? 4);
const root = join(__dirname, '..', '..', '..');
const bin = join(root, 'apps', 'runner', 'bin', 'multihop.js');

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'multihop-bench-queue-'));
  const redis = await startRedis();
  const model = await startOpenAICompatibleServer(() => ({ delayMs: LATENCY_MS, content: JSON.stringify({ reasoning: 'The first passage names it.', answer: 'yes' }) }));
  const env = {
    ...process.env,
    MULTIHOP_DATASETS_DIR: process.env['MULTIHOP_DATASETS_DIR'] ?? sharedDatasetsDir(),
    LANCEDB_LOG: 'error',
    MULTIHOP_MODEL: 'openai:bench-200ms',
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_API_KEY: 'local',
  };
  const db = join(dir, 'db');
  const workers = new Set<ChildProcess>();
  try {
    const ingest = spawnSync(process.execPath, [bin, 'ingest', '--dataset', 'hotpotqa-dev', '--setting', 'open', '--db', db], { env, encoding: 'utf8' });
    if (ingest.status !== 0) throw new Error(`ingest failed: ${ingest.stderr}`);

    /** Starts `n` workers and waits until each says it is taking pairs; then times one eval from spawn to exit. */
    const timeEval = async (n: number): Promise<{ ms: number; pairsMs: number; requests: number }> => {
      const started = Array.from({ length: n }, () => {
        const child = spawn(process.execPath, [bin, 'worker', '--queue', redis.url, '--concurrency', String(CONCURRENCY), '--db', db], { env, stdio: ['ignore', 'ignore', 'pipe'] });
        workers.add(child);
        return new Promise<ChildProcess>((resolve, reject) => {
          let log = '';
          child.stderr!.on('data', (chunk: Buffer) => {
            log += chunk.toString('utf8');
            if (log.includes('taking pairs from')) resolve(child);
          });
          child.once('exit', (code) => reject(new Error(`worker exited (${code}): ${log}`)));
        });
      });
      const children = await Promise.all(started);
      const before = model.requests.length;
      const out = join(dir, `eval-${n}-workers`);
      const t = performance.now();
      // Not spawnSync: the model server answers from this process's event loop.
      const evalRun = spawn(
        process.execPath,
        [bin, 'eval', '--workflows', 'single-turn-rag', '--dataset', 'hotpotqa-dev', '--limit', String(QUESTIONS), '--db', db, '--out', out, '--judge', 'offline', '--queue', redis.url],
        { env, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      let queuedAt = NaN;
      let doneAt = NaN;
      evalRun.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (Number.isNaN(queuedAt) && stderr.includes('new jobs')) queuedAt = performance.now();
        if (Number.isNaN(doneAt) && stderr.includes(' run by ')) doneAt = performance.now();
      });
      const status = await new Promise<number | null>((resolve) => evalRun.once('exit', resolve));
      const ms = performance.now() - t;
      if (status !== 0) throw new Error(`eval with ${n} workers failed (${status}): ${stderr}`);
      for (const child of children) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
        workers.delete(child);
      }
      return { ms, pairsMs: doneAt - queuedAt, requests: model.requests.length - before };
    };

    const one = await timeEval(1);
    const two = await timeEval(2);
    console.log(`# bench:queue — ${new Date().toISOString()}`);
    console.log(`machine: ${cpus().length} cores, node ${process.version}; ${QUESTIONS} hotpotqa-dev questions × single-turn-rag, eval --queue on redis-server,`);
    console.log(`model: local OpenAI wire-format server answering each call after ${LATENCY_MS} ms; ${CONCURRENCY} pairs in flight per worker; judge: offline\n`);
    console.log('| workers | eval wall time (s) | of which the pairs on the workers (s) | model calls |');
    console.log('|---|---|---|---|');
    for (const [n, r] of [[1, one], [2, two]] as const) console.log(`| ${n} | ${(r.ms / 1000).toFixed(1)} | ${(r.pairsMs / 1000).toFixed(1)} | ${r.requests} |`);
    console.log(`\nspeed-up of 2 workers over 1: ${(one.ms / two.ms).toFixed(2)}× on the eval's wall time, ${(one.pairsMs / two.pairsMs).toFixed(2)}× on the pairs (from queued to the last recorded; the rest is the eval's start, judging and summary)`);
    console.log(`floor of the pairs with 1 worker: ${QUESTIONS} × ${LATENCY_MS} ms / ${CONCURRENCY} in flight = ${((QUESTIONS * LATENCY_MS) / CONCURRENCY / 1000).toFixed(1)} s`);
  } finally {
    for (const child of workers) child.kill('SIGKILL');
    await model.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
