// The fast reader (src/scenario/fast-yaml.ts) against the `yaml` library: wherever it accepts a
// text, it must give yaml's data (parse + toJS, core schema) and yaml's places for every
// container and list item; and the loader must give the same Scenario either way.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fastParse, lineColOf, plainValue } from '../../src/scenario/fast-yaml.js';
import { locator } from '../../src/scenario/locate.js';
import { parseYaml } from '../../src/scenario/yaml.js';
import { loadScenario } from '../../src/scenario/load.js';
import { podsScenario, replicasScenario } from '../../src/bench/load.js';

const REPO = join(__dirname, '../..');

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) yamlFiles(p, out);
    else if (p.endsWith('.yaml')) out.push(p);
  }
  return out.sort();
}

/** Deep equality that tells -0 from 0, NaN from anything else, and key order. */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** 'bail' (left to yaml), 'ok', or what differs. */
function compare(text: string): string {
  const f = fastParse(text);
  if (!f) return 'bail';
  const y = parseYaml(text, 'x');
  if (!y.ok) return `accepted a text yaml refuses: ${y.issues[0].message}`;
  if (!same(f.data, y.doc.toJS({ maxAliasCount: 1000 }))) return 'data differs';
  const locate = locator(y.doc);
  const bad: string[] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (v === null || typeof v !== 'object') return;
    if (f.offsets.starts.get(v) !== locate(path, false)?.[0]) bad.push(`${path.join('.')}: start`);
    if (Array.isArray(v)) {
      const items = f.offsets.items.get(v)!;
      v.forEach((x, i) => {
        if (items[i] !== locate([...path, i], false)?.[0]) bad.push(`${path.join('.')}[${i}]: item`);
        walk(x, [...path, i]);
      });
    } else for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(f.data, []);
  return bad.length > 0 ? `places differ: ${bad.slice(0, 3).join(', ')}` : 'ok';
}

/** A small seeded generator (an LCG: deterministic, no dependency). */
function rng(seed: number) {
  let s = seed;
  const int = (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return (s >> 4) % n;
  };
  return { int, pick: <T>(a: readonly T[]): T => a[int(a.length)] };
}

const SCALARS = ['a', 'a b', 'a  b', '"x\\"y"', "'it''s'", '-1', '+1', '0o7', '0o8', '0x1f', '0x1G', '1e3', '1E-3', '.5', '5.', '.inf', '-.Inf', '.NaN', '~', 'Null', 'NULL', 'nUll', 'TRUE', 'tRue', 'a:b', 'a #b', 'a#b', 'http://x:80/y', 'a,b', '"\\u00e9"', '"\\t"', '"\\/"', '-', '-a', '?a', ':a', 'a:', '0', '-0', '00', '1_000', '1.50', '-.5e+2', '"a # b"', "'a: b'", 'é', '日本', '[]', '{}', 'x]', 'x}', '@a', '&a', '*a', '!a', '$x', "''", '""'];
const KEYS = ['a', 'b', 'c', 'x-kss', '$exists', 'a.b/c', '_z', '"q k"', "'s k'", 'k2', 'null', 'true', '1', 'k k'];

function generated(seed: number): string {
  const r = rng(seed);
  const flow = (d: number): string => {
    if (d > 2 || r.int(3) === 0) return r.pick(SCALARS);
    const n = r.int(4);
    const parts = Array.from({ length: n }, () => (r.int(2) ? `${r.pick(KEYS)}:${r.pick([' ', '  ', ''])}${flow(d + 1)}` : flow(d + 1)));
    return r.int(2) ? `{${r.pick([' ', ''])}${parts.join(r.pick([', ', ',']))}${r.pick([' ', ''])}}` : `[${parts.join(', ')}]`;
  };
  const blockScalar = (ind: number) => {
    const lines = Array.from({ length: 1 + r.int(4) }, () => {
      const k = r.int(8);
      if (k === 0) return '';
      if (k === 1) return ' '.repeat(ind + 2 + r.int(3));
      return ' '.repeat(ind + 2 + (r.int(6) === 0 ? 1 : 0)) + r.pick(['word', 'two words', 'trail  ', '# not a comment', 'a: b', '- x']);
    });
    return `${r.pick(['>-', '>', '|', '|-', '> #c', '>+', '>2'])}\n${lines.join('\n')}`;
  };
  const block = (ind: number, d: number): string => {
    const sp = ' '.repeat(ind);
    const out: string[] = [];
    const isMap = r.int(2) === 1 || d > 3;
    for (let i = 1 + r.int(3); i > 0; i--) {
      const k = r.int(6);
      if (isMap) {
        const key = r.pick(KEYS);
        if (k === 0 && d < 4) out.push(`${sp}${key}:${r.pick(['', ' ', ' # c'])}\n${block(ind + r.pick([2, 2, 4, 0, 1]), d + 1)}`);
        else if (k === 1) out.push(`${sp}${key}: ${blockScalar(ind)}`);
        else out.push(`${sp}${key}:${r.pick([' ', '  ', ''])}${flow(0)}${r.pick(['', ' # c', '#c', ' '])}`);
      } else if (k === 0 && d < 4) out.push(`${sp}- ${block(ind + 2, d + 1).replace(/^ +/, '')}`);
      else if (k === 1) out.push(`${sp}- ${blockScalar(ind)}`);
      else out.push(`${sp}-${r.pick([' ', '  '])}${flow(0)}`);
      if (r.int(5) === 0) out.push(r.pick(['', '# comment', '   # c', '  ']));
    }
    return out.join('\n');
  };
  return (r.int(3) ? `root:\n${block(r.pick([2, 0, 4]), 0)}` : block(0, 0)) + r.pick(['\n', '', '\n\n', '\n# end\n']);
}

function mutated(texts: readonly string[], seed: number): string {
  const r = rng(seed);
  const bits = [' ', ':', '-', '#', '{', '}', '[', ']', ',', "'", '"', '\n', '>', '|', 'a', '0', '.', '~', '\\', '- ', ': ', '\n  ', 'null', '1e3', '0x1F'];
  let t = r.pick(texts);
  for (let e = 1 + r.int(3); e > 0; e--) {
    const p = r.int(t.length);
    const lines = t.split('\n');
    const k = r.int(4);
    if (k === 0) t = t.slice(0, p) + t.slice(p + 1 + r.int(3));
    else if (k === 1) t = t.slice(0, p) + r.pick(bits) + t.slice(p);
    else if (k === 2) (lines.splice(r.int(lines.length), 0, r.pick(lines)), (t = lines.join('\n')));
    else {
      const i = r.int(lines.length);
      lines[i] = (r.int(2) ? ' ' : '') + lines[i].replace(/^ /, r.int(2) ? '' : ' ');
      t = lines.join('\n');
    }
  }
  return t;
}

const files = [...yamlFiles(join(REPO, 'scenarios')), ...yamlFiles(join(REPO, 'test'))];
const texts = files.map((f) => readFileSync(f, 'utf8'));

describe('the fast YAML reader', () => {
  it('gives yaml’s data and places on every scenario it reads, and reads most of them', () => {
    const results = texts.map((t, i) => [files[i], compare(t)] as const);
    expect(results.filter(([, r]) => r !== 'ok' && r !== 'bail')).toEqual([]);
    expect(results.filter(([, r]) => r === 'ok').length).toBeGreaterThan(files.length * 0.8);
    for (const t of [podsScenario(300), replicasScenario(300)]) expect(compare(t)).toBe('ok');
  });

  it('gives yaml’s data and places on generated and mutated texts, or leaves them to yaml', () => {
    const bad: string[] = [];
    let ok = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      for (const t of [generated(seed), mutated(texts, seed)]) {
        const r = compare(t);
        if (r === 'ok') ok++;
        else if (r !== 'bail' && bad.length < 5) bad.push(`${r}\n${t}`);
      }
    }
    expect(bad).toEqual([]);
    expect(ok).toBeGreaterThan(800); // (1157 of the 6000 at this writing: the rest are left to yaml)
  });

  it('resolves plain scalars as the core schema does', () => {
    for (const [s, v] of [['0o17', 15], ['0x1F', 31], ['-0', -0], ['+5', 5], ['1e3', 1000], ['.5', 0.5], ['-.inf', -Infinity], ['.NaN', NaN], ['~', null], ['False', false], ['1_000', '1_000'], ['0b1', '0b1'], ['nUll', 'nUll']] as const)
      expect(Object.is(plainValue(s), v)).toBe(true);
  });

  it('counts lines and columns as yaml does', () => {
    const at = lineColOf('a: 1\n\n  b: 2\n');
    expect([at(0), at(4), at(5), at(8)]).toEqual([{ line: 1, col: 1 }, { line: 1, col: 5 }, { line: 2, col: 1 }, { line: 3, col: 3 }]);
  });

  it('leaves anchors, tags, directives, second documents and multi-line flows to yaml', () => {
    for (const t of ['a: &x 1\nb: *x\n', 'a: !!str 1\n', '%YAML 1.2\n---\na: 1\n', 'a: 1\n---\nb: 2\n', 'a: [1,\n  2]\n', 'a: 1\na: 2\n', 'a:\tb\n', 'a: b\n  c\n', '- a\n'])
      expect(fastParse(t)).toBeUndefined();
  });
});

describe('the loader, fast or not', () => {
  it('gives the same Scenario, places included, and the same issues for every file', () => {
    const differ: string[] = [];
    texts.forEach((t, i) => {
      const fast = loadScenario(t, files[i]);
      const slow = loadScenario(t, files[i], { fast: false });
      if (JSON.stringify(fast) !== JSON.stringify(slow)) differ.push(files[i]);
    });
    expect(differ).toEqual([]);
  });
});
