// House rules that keep runs deterministic and the layers honest.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

const files = walk(SRC).map((p) => ({ path: relative(ROOT, p).replaceAll('\\', '/'), text: readFileSync(p, 'utf8') }));

/** Code that is not simulation: the CLI (progress and --stats) and the benchmarks. */
const NOT_SIMULATION = /^src\/(cli|bench|testing)\//;

describe('determinism', () => {
  const banned = /Math\.random|Date\.now\(|new Date\(\)|performance\.now\(|process\.hrtime|setTimeout\(|setInterval\(|setImmediate\(|crypto\.random/;
  it('simulation code uses neither the wall clock nor ambient randomness', () => {
    const hits: string[] = [];
    for (const f of files) {
      if (NOT_SIMULATION.test(f.path)) continue;
      f.text.split('\n').forEach((line, i) => {
        if (banned.test(line) && !line.includes('wall-clock-ok')) hits.push(`${f.path}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(hits).toEqual([]);
  });

  it('the banned-API check really finds a banned call', () => {
    expect(banned.test('const t = Date.now();')).toBe(true);
    expect(banned.test('x = Math.random()')).toBe(true);
  });
});

describe('layers', () => {
  const importsOf = (text: string) => [...text.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]);
  const layer = (path: string) => path.split('/')[1];

  it('seedrandom lives only in engine/rng.ts; yargs only in cli/; yaml and zod only in scenario/; chalk only in report/ and cli/', () => {
    const rules: Array<[RegExp, RegExp]> = [
      [/^seedrandom/, /^src\/engine\/rng\.ts$/],
      [/^yargs/, /^src\/cli\//],
      [/^(yaml|zod)(\/|$)/, /^src\/scenario\//],
      [/^chalk/, /^src\/(report|cli)\//],
    ];
    const bad: string[] = [];
    for (const f of files) for (const imp of importsOf(f.text)) for (const [lib, home] of rules) if (lib.test(imp) && !home.test(f.path)) bad.push(`${f.path} imports ${imp}`);
    expect(bad).toEqual([]);
  });

  it('engine/ knows nothing of Kubernetes, and the kubelet never imports the apiserver', () => {
    const bad: string[] = [];
    for (const f of files) {
      const imps = importsOf(f.text);
      if (layer(f.path) === 'engine' && imps.some((i) => i.startsWith('..') || i.startsWith('kubernetes-types'))) bad.push(f.path);
      if (layer(f.path) === 'kubelet' && imps.some((i) => /apiserver|\/world\/|\/network\//.test(i))) bad.push(f.path);
      if (['model', 'engine'].includes(layer(f.path)) && imps.some((i) => /\/(world|kubelet|apiserver|network|cli|report|scenario)\//.test(i))) bad.push(f.path);
    }
    expect(bad).toEqual([]);
  });
});
