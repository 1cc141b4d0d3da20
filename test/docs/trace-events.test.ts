// docs/trace-events.md and the code agree: every declared trace type (the TraceType union) has a
// section, nothing else does, and every type and field that any shipped scenario emits (under its
// own generation) is documented under its type. Types documented as "not emitted" are exactly
// the declared types no scenario emits.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile, runScenario } from '../../src/index.js';
import { discoverScenarios } from '../../src/testing/discover.js';

const ROOT = join(import.meta.dirname, '..', '..');
const doc = readFileSync(join(ROOT, 'docs/trace-events.md'), 'utf8');
const COMMON = new Set(['t', 'seq', 'actor', 'type', 'pod', 'node']);

/** `### \`type\`` sections and the `| \`field\` |` rows under each. */
function documented(): Map<string, { fields: Set<string>; notEmitted: boolean }> {
  const out = new Map<string, { fields: Set<string>; notEmitted: boolean }>();
  const parts = doc.split(/^### /m).slice(1);
  for (const p of parts) {
    const m = /^`([a-zA-Z.-]+)`\n/.exec(p);
    if (!m) continue;
    const body = p.split(/^## /m)[0];
    const fields = new Set([...body.matchAll(/^\| `(\w+)` \|/gm)].map((f) => f[1]));
    out.set(m[1], { fields, notEmitted: /not emitted by this version/.test(body) });
  }
  return out;
}

/** The TraceType union, read from the source that declares it (wherever it lives). */
function declared(): Set<string> {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk(join(ROOT, 'src'));
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const m = /export type TraceType =([^;]+);/.exec(text);
    if (m) return new Set([...m[1].matchAll(/'([a-zA-Z.-]+)'/g)].map((x) => x[1]));
  }
  throw new Error('no `export type TraceType` in src/');
}

function emitted(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const f of discoverScenarios(['scenarios'], ROOT).files) {
    const l = loadScenarioFile(f.abs);
    if (!l.ok) throw new Error(`${f.display} does not load`);
    // Each under its own generation: every generation has its own scenarios.
    for (const r of runScenario(l.scenario).trace) {
      const fields = out.get(r.type) ?? new Set<string>();
      for (const k of Object.keys(r)) if (!COMMON.has(k)) fields.add(k);
      out.set(r.type, fields);
    }
  }
  return out;
}

describe('docs/trace-events.md', () => {
  const docs = documented();
  const types = declared();

  it('documents exactly the declared trace types', () => {
    expect(types.size).toBeGreaterThan(30);
    expect([...docs.keys()].sort()).toEqual([...types].sort());
  });

  it('documents every type and field the shipped scenarios emit, and says which types are not emitted', () => {
    const seen = emitted();
    const missing: string[] = [];
    for (const [type, fields] of seen) {
      const d = docs.get(type);
      if (d === undefined) missing.push(`type ${type}`);
      else for (const f of fields) if (!d.fields.has(f)) missing.push(`${type}.${f}`);
    }
    expect(missing).toEqual([]);
    const notEmitted = [...types].filter((t) => !seen.has(t)).sort();
    expect([...docs].filter(([, d]) => d.notEmitted).map(([t]) => t).sort()).toEqual(notEmitted);
  }, 300_000);
});
