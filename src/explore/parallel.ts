// Splitting a search: `--shard i/n` takes the run indices k ≡ i−1 (mod n), so shards 1..n together
// run every index of one search exactly once; `-j N` hands batches of a shard's indices to worker
// threads in order. Finds fold by their first run and coverage by set union, so the result is the
// same for any N and any n.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Partial } from './search.js';
import type { WorkerInit } from './worker.js';

export interface Shard {
  index: number; // 1-based
  total: number;
}

/** `i/n`, 1 ≤ i ≤ n; undefined when malformed. */
export function parseShardSpec(s: string): Shard | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const total = Number(m[2]);
  return index >= 1 && total >= 1 && index <= total ? { index, total } : undefined;
}

/** The shard from the environment: JOB_COMPLETION_INDEX (0-based, Kubernetes Indexed Job) with
 *  a total from KSS_SHARD_TOTAL or the option, or CI_NODE_INDEX/CI_NODE_TOTAL (1-based, GitLab). */
export function shardFromEnv(env: Record<string, string | undefined>, total?: number): Shard | string {
  const n = Number(env.KSS_SHARD_TOTAL ?? total ?? env.CI_NODE_TOTAL);
  if (env.JOB_COMPLETION_INDEX !== undefined) {
    const i = Number(env.JOB_COMPLETION_INDEX);
    if (!Number.isInteger(i) || i < 0) return `JOB_COMPLETION_INDEX: expected a whole number ≥ 0, got ${JSON.stringify(env.JOB_COMPLETION_INDEX)}`;
    if (!Number.isInteger(n) || n < 1) return 'JOB_COMPLETION_INDEX is set but the number of shards is not: give --shard-total N (the Job\'s completions) or KSS_SHARD_TOTAL';
    if (i >= n) return `JOB_COMPLETION_INDEX ${i} is not below the number of shards ${n}`;
    return { index: i + 1, total: n };
  }
  if (env.CI_NODE_INDEX !== undefined) {
    const i = Number(env.CI_NODE_INDEX);
    if (!Number.isInteger(i) || i < 1 || !Number.isInteger(n) || n < i) return `CI_NODE_INDEX/CI_NODE_TOTAL: expected 1 ≤ index ≤ total, got ${env.CI_NODE_INDEX}/${env.CI_NODE_TOTAL}`;
    return { index: i, total: n };
  }
  return 'neither JOB_COMPLETION_INDEX nor CI_NODE_INDEX is set (--shard-from-env)';
}

/** The j-th run index of a shard. */
export function shardIndex(shard: Shard, j: number): number {
  return shard.index - 1 + shard.total * j;
}

export function resolveExploreWorker(moduleUrl: string = import.meta.url): URL | undefined {
  const here = new URL(moduleUrl);
  const candidates = here.pathname.endsWith('.js') ? [new URL('./worker.js', here)] : [new URL('../../dist/explore/worker.js', here)];
  for (const u of candidates) if (existsSync(fileURLToPath(u))) return u;
  return undefined;
}

/** The parent's Node flags, less those a worker refuses (`node --input-type=module -e …`). */
function workerExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--input-type')) {
      if (argv[i] === '--input-type') i++;
      continue;
    }
    out.push(argv[i]);
  }
  return out;
}

export interface PoolRun {
  jobs: number;
  script: URL;
  init: WorkerInit;
  /** The next batch of run indices, or undefined when there is no more to hand out. */
  nextBatch: () => number[] | undefined;
  onPartial: (batch: number, p: Partial) => void;
}

/** Hand batches to `jobs` workers until nextBatch has none; resolves when all are answered. */
export function runPool(o: PoolRun): Promise<void> {
  return new Promise((resolveAll, rejectAll) => {
    let live = 0;
    let batchNo = 0;
    let failed = false;
    const start = () => {
      live++;
      const w = new Worker(o.script, { execArgv: workerExecArgv() });
      w.postMessage({ init: o.init });
      const next = () => {
        const indices = failed ? undefined : o.nextBatch();
        if (indices === undefined) {
          live--;
          void w.terminate();
          if (live === 0) resolveAll();
          return;
        }
        w.postMessage({ batch: { batch: batchNo++, indices } });
      };
      w.on('message', (m: { batch: number; partial: Partial }) => {
        o.onPartial(m.batch, m.partial);
        next();
      });
      w.on('error', (err) => {
        failed = true;
        rejectAll(err);
      });
      next();
    };
    for (let i = 0; i < Math.max(1, o.jobs); i++) start();
  });
}
