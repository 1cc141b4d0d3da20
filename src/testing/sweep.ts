// A parameter sweep (`kss test --sweep 'spec.kubelet.apiQPS=5,10,50'`): every scenario run once
// per value of one field, the value set over the file's before it is checked, for the bugs that
// live in a window (a client's QPS, a probe's lag, a grace period). Each run is judged as `kss run`
// judges it (expectations and invariants; goldens do not apply: they hold the file's own values),
// and the result is a table: one row per scenario, one column per value, each cell the verdict and
// the invariants violated.
import { relative, resolve } from 'node:path';
import { loadScenarioFile, type Issue } from '../scenario/index.js';
import { runScenario } from '../world/run.js';
import { discoverScenarios } from './discover.js';

export interface SweepSpec {
  /** The field, as a document path: spec.kubelet.apiQPS. */
  path: string[];
  /** The values, as YAML text: 5, 10, 50 (a duration like 10s, a boolean...). */
  values: string[];
}

export interface SweepCell {
  verdict: 'pass' | 'fail';
  /** Every invariant violated in the run (expected or not), by name, each once, in order. */
  violated: string[];
}

export interface SweepRow {
  file: string;
  name: string;
  cells: SweepCell[];
}

export type SweepResult = { ok: true; spec: SweepSpec; rows: SweepRow[] } | { ok: false; issues: Issue[] };

/** `spec.kubelet.apiQPS=5,10,50` → the path and the values; a message when it is not that shape. */
export function parseSweep(text: string): SweepSpec | string {
  const m = /^([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)=(.+)$/.exec(text.trim());
  if (m === null) return `--sweep: expected FIELD=V1,V2,... like spec.kubelet.apiQPS=5,10,50, got ${JSON.stringify(text)}`;
  const path = m[1].split('.');
  if (path[0] !== 'spec' || path.length < 2) return `--sweep: the field must be inside spec (like spec.kubelet.apiQPS), got ${JSON.stringify(m[1])}`;
  const values = m[2].split(',').map((v) => v.trim());
  if (values.some((v) => v === '')) return `--sweep: an empty value in ${JSON.stringify(m[2])}`;
  return { path, values };
}

/** Run every scenario under `paths` once per value. Bad input (a value the loader refuses for a
 *  file) is returned as that file's issues, the first file's only. */
export function runSweep(paths: readonly string[], spec: SweepSpec, opts: { cwd: string; seed?: number; maxEvents?: number }): SweepResult {
  const files = discoverScenarios(paths.length > 0 ? paths : ['scenarios'], opts.cwd).files.map((f) => resolve(opts.cwd, f.display));
  const rows: SweepRow[] = [];
  for (const file of files) {
    const display = relative(opts.cwd, file).replaceAll('\\', '/');
    let name = display;
    const cells: SweepCell[] = [];
    for (const value of spec.values) {
      const loaded = loadScenarioFile(file, [[spec.path, value]]);
      if (!loaded.ok) return { ok: false, issues: loaded.issues };
      name = loaded.scenario.name;
      const r = runScenario({ ...loaded.scenario, file: display }, { seed: opts.seed, maxEvents: opts.maxEvents, keepTrace: true });
      const violated: string[] = [];
      for (const e of r.trace) if (e.type === 'invariant.violation' && !violated.includes(String(e.invariant))) violated.push(String(e.invariant));
      cells.push({ verdict: r.verdict, violated });
    }
    rows.push({ file: display, name, cells });
  }
  return { ok: true, spec, rows };
}

/** The result as a plain-text table. */
export function sweepTable(r: Extract<SweepResult, { ok: true }>): string {
  const field = r.spec.path.join('.');
  const head = ['scenario', ...r.spec.values.map((v) => `=${v}`)];
  const body = r.rows.map((row) => [row.name, ...row.cells.map((c) => (c.verdict === 'pass' ? 'pass' : 'FAIL') + (c.violated.length > 0 ? ` (${c.violated.join(', ')})` : ''))]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cols: string[]) => cols.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [`sweep of ${field}`, line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n') + '\n';
}
