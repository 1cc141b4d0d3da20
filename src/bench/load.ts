// Loading a large scenario: N pods (each with a container and its x-kss attempts), written flat
// (one line per pod) or with the `x-kss.replicas` generator, to a temp dir, then
// `loadScenarioFile` on it, in a fresh process: wall and CPU time (steadier on a shared
// machine), the heap the loaded Scenario retains (after a full collection), and the process's
// peak RSS (what the load needed at its height).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadScenarioFile } from '../scenario/index.js';
import type { BenchResult } from './types.js';

/** A valid scenario of `n` pods, one flow-style line per pod (the shape a generator writes). */
export function podsScenario(n: number): string {
  const lines = ['apiVersion: kss/v1alpha1', 'kind: Scenario', 'metadata: { name: many-pods }', 'spec:', '  until: 1m', '  pods:'];
  for (let i = 0; i < n; i++)
    lines.push(
      `    - { metadata: { name: pod-${i}, labels: { app: a${i % 10} } }, spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }, x-kss: { containers: { main: [{ run: ${1 + (i % 60)}s, exit: 0 }] } } }`,
    );
  return lines.join('\n') + '\n';
}

/** The same pods written with the generator: 60 entries (one per run length), each
 *  `x-kss.replicas` of them — a page, not a megabyte. */
export function replicasScenario(n: number): string {
  const lines = ['apiVersion: kss/v1alpha1', 'kind: Scenario', 'metadata: { name: many-pods }', 'spec:', '  until: 1m', '  pods:'];
  const kinds = Math.min(60, n);
  for (let i = 0; i < kinds; i++) {
    const replicas = Math.floor(n / kinds) + (i < n % kinds ? 1 : 0);
    lines.push(
      `    - { metadata: { name: pod-${i}, labels: { app: a${i % 10} } }, spec: { restartPolicy: Never, containers: [{ name: main, image: busybox }] }, x-kss: { replicas: ${replicas}, containers: { main: [{ run: ${1 + i}s, exit: 0 }] } } }`,
    );
  }
  return lines.join('\n') + '\n';
}

/** A full collection, for a heap figure that counts only what is still referenced. */
function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export function loadBench(n: number, form: 'flat' | 'replicas' = 'flat'): BenchResult {
  const dir = mkdtempSync(join(tmpdir(), 'kss-bench-load-'));
  try {
    const file = join(dir, `pods-${n}.yaml`);
    const text = form === 'flat' ? podsScenario(n) : replicasScenario(n);
    writeFileSync(file, text);
    collect();
    const heap0 = process.memoryUsage().heapUsed;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now(); // wall-clock-ok: a benchmark measures wall time
    const r = loadScenarioFile(file);
    const wallMs = performance.now() - t0; // wall-clock-ok: a benchmark measures wall time
    const cpu = process.cpuUsage(cpu0);
    collect();
    const heapMb = Math.round((process.memoryUsage().heapUsed - heap0) / 1024 / 1024);
    if (!r.ok) throw new Error(`the generated scenario did not load: ${r.issues[0]?.message}`);
    return { name: `load-${n / 1000}k${form === 'flat' ? '' : '-replicas'}`, events: 0, wallMs, virtualMs: 0, pods: r.scenario.pods.length, fileMb: Math.round(text.length / 1024 / 102.4) / 10, fileKb: Math.round(text.length / 1024), cpuMs: Math.round((cpu.user + cpu.system) / 1000), heapRetainedMb: heapMb };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
