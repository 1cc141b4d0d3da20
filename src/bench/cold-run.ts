// Whole `kss` processes from cold, as a user starts them: `kss run` of the node-110 scenario
// (written to a temp file; --format json, output discarded) and `kss --help`, each spawned ROUNDS
// times by the bench, alternating. Reported for each: the median wall time, the median CPU time of
// the child (user + system, every thread: steadier on a shared machine) and its peak RSS; and a
// bare `node -e 0` beside them, the floor of any Node process. The runs use a scenario cache of
// their own (KSS_CACHE_DIR in the temp folder): the first round is a miss (it loads the file the
// full way and writes the entry: runMissWallMs), the others hit (runWallMs, the median of the
// rounds after the first); runNoCacheWallMs is the same run with KSS_NO_CACHE=1, every round.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { node110ScenarioText } from './node-110.js';
import type { BenchResult } from './types.js';

const ROUNDS = 5;
const BIN = fileURLToPath(new URL('../cli/bin.js', import.meta.url));
const HOOK = new URL('./usage-hook.js', import.meta.url).href;

interface Sample {
  wallMs: number;
  cpuMs: number;
  rssMb: number;
}

/** One child process, with the usage hook: wall time measured here, CPU and peak RSS reported by
 *  the child itself as it exits. */
function spawnOnce(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Sample {
  const t0 = performance.now(); // wall-clock-ok: a benchmark measures wall time
  const r = spawnSync(process.execPath, ['--import', HOOK, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env });
  const wallMs = performance.now() - t0; // wall-clock-ok: a benchmark measures wall time
  const usage = /kss-bench-usage (\{.*\})/.exec(r.stderr);
  if (r.status !== 0 || !usage) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 400)}`);
  const u = JSON.parse(usage[1]) as { cpuMs: number; rssMb: number };
  return { wallMs, cpuMs: u.cpuMs, rssMb: u.rssMb };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

export function coldRun(): BenchResult {
  const dir = mkdtempSync(join(tmpdir(), 'kss-bench-cold-'));
  try {
    const file = join(dir, 'node-110.yaml');
    writeFileSync(file, node110ScenarioText());
    const withCache = { ...process.env, KSS_CACHE_DIR: join(dir, 'cache'), KSS_NO_CACHE: '' };
    const noCache = { ...process.env, KSS_NO_CACHE: '1' };
    const runArgs = [BIN, 'run', file, '--format', 'json'];
    const run: Sample[] = [];
    const uncached: Sample[] = [];
    const help: Sample[] = [];
    const bare: Sample[] = [];
    for (let i = 0; i < ROUNDS + 1; i++) {
      run.push(spawnOnce(runArgs, withCache));
      uncached.push(spawnOnce(runArgs, noCache));
      help.push(spawnOnce([BIN, '--help']));
      bare.push(spawnOnce(['-e', '0']));
    }
    const hits = run.slice(1);
    const m = (xs: Sample[], k: keyof Sample) => Math.round(median(xs.map((s) => s[k])));
    return {
      name: 'cold-run',
      events: 0,
      wallMs: median(hits.map((s) => s.wallMs)),
      virtualMs: 3_600_000,
      rounds: ROUNDS,
      runWallMs: m(hits, 'wallMs'),
      runCpuMs: m(hits, 'cpuMs'),
      runPeakRssMb: Math.round(Math.max(...run.map((s) => s.rssMb))),
      runMissWallMs: Math.round(run[0].wallMs),
      runNoCacheWallMs: m(uncached, 'wallMs'),
      runNoCacheCpuMs: m(uncached, 'cpuMs'),
      helpWallMs: m(help, 'wallMs'),
      helpCpuMs: m(help, 'cpuMs'),
      nodeBareWallMs: m(bare, 'wallMs'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
