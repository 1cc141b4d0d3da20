// The scenario cache (src/scenario/load-cache.ts): a hit is exactly the load it stands for, for
// every scenario in the repo; only clean loads are kept; an entry of another build, another file
// or another version of the file is never served; a broken entry is ignored; the cache stays
// bounded; and the CLI (from the bundle) uses it, with the same output as without it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { scenarioCacheOf } from '../../src/cli/io.js';
import { loadScenarioFile, loadScenarioFileCached, type ScenarioCache } from '../../src/scenario/index.js';
import { REPO } from '../cli/helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'kss-scenario-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const freshCache = (over: Partial<ScenarioCache> = {}): ScenarioCache => ({ dir: join(scratch, `c${n++}`), build: 'test-build', minBytes: 0, ...over });
const entries = (c: ScenarioCache) => (existsSync(c.dir) ? readdirSync(c.dir).filter((f) => f.endsWith('.v8')) : []);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? yamlFiles(join(dir, d.name)) : d.name.endsWith('.yaml') ? [join(dir, d.name)] : []));
}

const SCENARIO = `apiVersion: kss/v1alpha1
kind: Scenario
metadata: { name: cached }
spec:
  pods:
    - metadata: { name: web }
      spec: { containers: [{ name: main, image: nginx }] }
`;

function file(name: string, text: string): string {
  const p = join(scratch, name);
  writeFileSync(p, text);
  return p;
}

describe('the scenario cache', () => {
  it('serves, for every scenario of the repo, exactly what the loader loads', () => {
    const files = yamlFiles(join(REPO, 'scenarios'));
    expect(files.length).toBeGreaterThan(300);
    const cache = freshCache();
    let kept = 0;
    for (const f of files) {
      const plain = loadScenarioFile(f);
      const miss = loadScenarioFileCached(f, cache);
      const hit = loadScenarioFileCached(f, cache);
      expect(isDeepStrictEqual(miss, plain), f).toBe(true);
      expect(isDeepStrictEqual(hit, plain), f).toBe(true);
      if (plain.ok) kept++;
    }
    expect(entries(cache).length).toBe(Math.min(kept, 64));
  });

  it('reads a hit from its entry, and only an entry of this key', () => {
    const cache = freshCache();
    const p = file('hit.yaml', SCENARIO);
    loadScenarioFileCached(p, cache);
    const [name] = entries(cache);
    const at = join(cache.dir, name);
    const entry = deserialize(readFileSync(at)) as { key: string; result: { scenario: { name: string } } };
    entry.result.scenario.name = 'from-the-entry';
    writeFileSync(at, serialize(entry));
    const hit = loadScenarioFileCached(p, cache);
    expect(hit.ok && hit.scenario.name).toBe('from-the-entry');
    writeFileSync(at, serialize({ ...entry, key: 'another' }));
    const miss = loadScenarioFileCached(p, cache);
    expect(miss.ok && miss.scenario.name).toBe('cached');
  });

  it('never serves an entry of another build, or of the file before it changed', () => {
    const cache = freshCache();
    const p = file('changes.yaml', SCENARIO);
    loadScenarioFileCached(p, cache);
    loadScenarioFileCached(p, { ...cache, build: 'another-build' });
    expect(entries(cache).length).toBe(2);
    writeFileSync(p, SCENARIO.replace('name: cached', 'name: changed'));
    const r = loadScenarioFileCached(p, cache);
    expect(r.ok && r.scenario.name).toBe('changed');
    expect(entries(cache).length).toBe(3);
  });

  it('keeps no failed load: its issues, and where they are, are the loader own', () => {
    const cache = freshCache();
    const p = file('bad.yaml', SCENARIO.replace('image: nginx', 'image: 42\n      x: 1'));
    const plain = loadScenarioFile(p);
    expect(plain.ok).toBe(false);
    expect(loadScenarioFileCached(p, cache)).toEqual(plain);
    expect(loadScenarioFileCached(p, cache)).toEqual(plain);
    expect(entries(cache)).toEqual([]);
  });

  it('loads the full way past an entry that cannot be read, and writes it again', () => {
    const cache = freshCache();
    const p = file('corrupt.yaml', SCENARIO);
    loadScenarioFileCached(p, cache);
    const at = join(cache.dir, entries(cache)[0]);
    writeFileSync(at, 'not a V8 value');
    expect(isDeepStrictEqual(loadScenarioFileCached(p, cache), loadScenarioFile(p))).toBe(true);
    expect(deserialize(readFileSync(at))).toMatchObject({ format: 'kss-scenario-cache/1' });
  });

  it('keeps small files out by default, and at most maxEntries files', () => {
    const small = freshCache({ minBytes: undefined });
    loadScenarioFileCached(file('small.yaml', SCENARIO), small);
    expect(entries(small)).toEqual([]);
    const bounded = freshCache({ maxEntries: 2 });
    for (const i of [1, 2, 3, 4]) loadScenarioFileCached(file(`b${i}.yaml`, SCENARIO.replace('name: cached', `name: b${i}`)), bounded);
    expect(entries(bounded).length).toBe(2);
  });

  it('is off without a build, with KSS_NO_CACHE, and found where the environment says', () => {
    expect(scenarioCacheOf({}, undefined, '/home/u')).toBeUndefined();
    expect(scenarioCacheOf({ KSS_NO_CACHE: '1' }, 'b', '/home/u')).toBeUndefined();
    expect(scenarioCacheOf({ KSS_NO_CACHE: '0' }, 'b', '/home/u')).toEqual({ dir: '/home/u/.cache/kss/scenarios', build: 'b' });
    expect(scenarioCacheOf({ XDG_CACHE_HOME: '/x' }, 'b', '/home/u')?.dir).toBe('/x/kss/scenarios');
    expect(scenarioCacheOf({ XDG_CACHE_HOME: 'relative' }, 'b', '/home/u')?.dir).toBe('/home/u/.cache/kss/scenarios');
    expect(scenarioCacheOf({ KSS_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }, 'b', '/home/u')?.dir).toBe('/c/scenarios');
    expect(scenarioCacheOf({}, 'b', '')).toBeUndefined();
  });
});

const DIST = join(REPO, 'dist');
describe.runIf(existsSync(join(DIST, 'cli/kss.cjs.json')))('kss run with the scenario cache', () => {
  it('writes an entry on the first run of a large file, and prints the same bytes from it', () => {
    const pods = Array.from({ length: 400 }, (_, i) => `    - { metadata: { name: web-${i} }, spec: { containers: [{ name: main, image: nginx }] } }`).join('\n');
    const p = file('large.yaml', `apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: large }\nspec:\n  until: 20s\n  pods:\n${pods}\n`);
    expect(readFileSync(p).length).toBeGreaterThan(32 * 1024);
    const dir = join(scratch, 'cli-cache');
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, [join(DIST, 'cli/bin.js'), 'run', p, '--format', 'json'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', KSS_NO_CACHE: '', KSS_CACHE_DIR: dir, ...env }, timeout: 60_000 });
    const plain = run({ KSS_NO_CACHE: '1' });
    expect(plain.status).toBe(0);
    expect(existsSync(dir)).toBe(false);
    const miss = run({});
    expect(readdirSync(join(dir, 'scenarios')).length).toBe(1);
    const hit = run({});
    for (const r of [miss, hit]) {
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(plain.stdout);
      expect(r.stderr).toBe(plain.stderr);
    }
  });
});
