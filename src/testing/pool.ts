// A small pool of worker threads for `kss test`. The main thread hands out one case at a time to
// whichever worker is free (so a slow scenario does not hold up a whole batch); each worker loads
// and runs its scenario by path with the built JavaScript (dist/testing/worker.js).
//
// A worker that dies (an uncaught error, running out of memory) or overruns the per-case time
// limit fails the case it held and is replaced; the other cases go on.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CaseResult, CaseSpec } from './types.js';

/**
 * Where the worker script is: beside this module when it runs from dist/ (the bin, the library),
 * else, when this module is TypeScript source run by vitest or a loader, the built copy in the
 * package's dist/ (`npm test` builds before it tests). Undefined when there is none: the caller
 * then runs in-process.
 */
export function resolveWorkerScript(moduleUrl: string = import.meta.url): URL | undefined {
  const here = new URL(moduleUrl);
  const candidates = here.pathname.endsWith('.js') ? [new URL('./worker.js', here)] : [new URL('../../dist/testing/worker.js', here)];
  for (const u of candidates) if (existsSync(fileURLToPath(u))) return u;
  return undefined;
}

/** The parent's Node flags, less those a worker refuses (`node --input-type=module -e …`). */
export function workerExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--input-type=')) continue;
    if (a === '--input-type') {
      i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** What a worker takes of the parent's flags. A worker refuses V8 and process-wide flags
 *  (`--max-old-space-size`, `--stack-size`, `--title`…: ERR_WORKER_INVALID_EXEC_ARGV); those are
 *  left out, and the heap and stack limits among them become the worker's resourceLimits. */
export interface WorkerSetup {
  execArgv: string[];
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number; stackSizeMb?: number };
}

const LIMIT_FLAGS: Record<string, 'maxOldGenerationSizeMb' | 'maxYoungGenerationSizeMb' | 'stackSizeMb'> = {
  '--max-old-space-size': 'maxOldGenerationSizeMb',
  '--max_old_space_size': 'maxOldGenerationSizeMb',
};

/** The setup without the flags a worker refused (named in its error message). */
export function withoutRefused(setup: WorkerSetup, message: string): WorkerSetup {
  const m = /invalid execArgv flags: (.*)$/.exec(message);
  const refused = new Set((m?.[1] ?? '').split(', ').map((f) => f.trim()));
  const limits = { ...setup.resourceLimits };
  const execArgv: string[] = [];
  for (const a of setup.execArgv) {
    if (!refused.has(a)) {
      execArgv.push(a);
      continue;
    }
    const [flag, value] = a.split('=');
    const key = LIMIT_FLAGS[flag];
    const n = Number(value);
    if (key !== undefined && Number.isFinite(n) && n > 0) limits[key] = n;
  }
  // Nothing recognisable refused: start with no flags at all rather than not at all.
  return { execArgv: refused.size > 0 && execArgv.length < setup.execArgv.length ? execArgv : [], resourceLimits: Object.keys(limits).length > 0 ? limits : undefined };
}

let acceptedSetup: WorkerSetup | undefined;

/** A worker for `script` with as many of the parent's flags as a worker accepts. */
export function newWorker(script: URL): Worker {
  let setup = acceptedSetup ?? { execArgv: workerExecArgv() };
  for (let attempt = 0; ; attempt++) {
    try {
      const w = new Worker(script, setup);
      acceptedSetup = setup;
      return w;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV' || attempt > 1) throw err;
      setup = withoutRefused(setup, (err as Error).message);
    }
  }
}

export interface PoolOptions {
  jobs: number;
  script: URL;
  /** Wall-clock limit per case; 0 or undefined: none. */
  timeoutMs?: number;
  /** Asked before each case is handed out; false: stop handing out (the rest are not run). */
  shouldContinue?: () => boolean;
  onResult: (r: CaseResult) => void;
}

function lostCase(spec: CaseSpec, why: string, durationMs: number): CaseResult {
  return {
    id: spec.id,
    file: spec.display,
    name: spec.display,
    caseName: spec.display,
    seed: spec.seed,
    variant: spec.variant,
    tags: [],
    status: 'fail',
    crashed: true,
    failures: [why],
    notes: [],
    durationMs,
  };
}

/** Runs the cases on up to `jobs` workers; resolves when every handed-out case has a result.
 *  Returns the specs that were never handed out (after shouldContinue said stop). */
export function runInWorkers(specs: readonly CaseSpec[], opts: PoolOptions): Promise<CaseSpec[]> {
  const queue = [...specs];
  const n = Math.max(1, Math.min(opts.jobs, queue.length));
  let live = 0;
  return new Promise((resolveAll) => {
    const finish = () => {
      if (live === 0) resolveAll(queue.splice(0));
    };
    const start = () => {
      live++;
      const w = newWorker(opts.script);
      let current: { spec: CaseSpec; t0: number; timer?: ReturnType<typeof setTimeout> } | undefined;
      let done = false;
      const retire = () => {
        if (done) return;
        done = true;
        live--;
        void w.terminate();
        finish();
      };
      const next = () => {
        if (queue.length === 0 || (opts.shouldContinue !== undefined && !opts.shouldContinue())) return retire();
        const spec = queue.shift()!;
        current = { spec, t0: performance.now() }; // wall-clock-ok: report timing and the case time limit
        if (opts.timeoutMs) {
          current.timer = setTimeout(() => lose(`timed out: no result after ${opts.timeoutMs} ms of wall time (--timeout)`), opts.timeoutMs); // wall-clock-ok
        }
        w.postMessage({ spec });
      };
      // The case in hand is lost with its worker; a fresh worker takes over the rest of the queue.
      const lose = (why: string) => {
        if (done) return;
        const c = current;
        current = undefined;
        if (c !== undefined) {
          clearTimeout(c.timer);
          opts.onResult(lostCase(c.spec, why, performance.now() - c.t0)); // wall-clock-ok
        }
        // Start the replacement before retiring, so the pool never looks empty in between.
        if (queue.length > 0 && (opts.shouldContinue === undefined || opts.shouldContinue())) start();
        retire();
      };
      w.on('message', (msg: { id: number; result: CaseResult }) => {
        if (current === undefined || msg.id !== current.spec.id) return;
        clearTimeout(current.timer);
        current = undefined;
        opts.onResult(msg.result);
        next();
      });
      w.on('error', (err) => lose(`the worker running this case died: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
      w.on('exit', (code) => {
        if (!done) lose(`the worker running this case exited (code ${code})`);
      });
      next();
    };
    if (queue.length === 0) return resolveAll([]);
    for (let i = 0; i < n; i++) start();
  });
}
