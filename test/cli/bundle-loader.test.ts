// The CLI bundle (dist/cli/kss.cjs, scripts/bundle.mjs): used only while every module it was built
// from is unchanged, and then the same CLI as the modules tsc built.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { currentManifest, MANIFEST_FILE, stampOf, unchanged, type BundleManifest } from '../../src/cli/bundle-loader.js';
import { REPO } from './helpers.js';

const DIST = join(REPO, 'dist');
const BIN = join(DIST, 'cli/bin.js');
const scratch = mkdtempSync(join(tmpdir(), 'kss-bundle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a file stamp', () => {
  it('holds while the size and the mtime or the bytes are the same', () => {
    const dir = join(scratch, 'stamp');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.js'), 'export const a = 1;\n');
    const stamp = stampOf(dir, 'a.js')!;
    expect(unchanged(dir, stamp)).toBe(true);
    utimesSync(join(dir, 'a.js'), new Date(2000, 0, 1), new Date(2000, 0, 1)); // as npm pack stamps files
    expect(unchanged(dir, stamp)).toBe(true);
    writeFileSync(join(dir, 'a.js'), 'export const a = 2;\n'); // same size, other bytes
    expect(unchanged(dir, stamp)).toBe(false);
    writeFileSync(join(dir, 'a.js'), 'export const a = 10;\n');
    expect(unchanged(dir, stamp)).toBe(false);
    rmSync(join(dir, 'a.js'));
    expect(unchanged(dir, stamp)).toBe(false);
  });
});

describe('a manifest', () => {
  it('is current until a module it names changes', () => {
    const dir = join(scratch, 'dist');
    mkdirSync(join(dir, 'cli'), { recursive: true });
    writeFileSync(join(dir, 'cli/kss.cjs'), 'module.exports = {};\n');
    writeFileSync(join(dir, 'cli/main.js'), 'export {};\n');
    const m: BundleManifest = { kssBundle: 1, bundle: stampOf(dir, 'cli/kss.cjs')!, inputs: [stampOf(dir, 'cli/main.js')!] };
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(m));
    expect(currentManifest(dir)).toEqual(m);
    writeFileSync(join(dir, 'cli/main.js'), 'export const x = 1;\n'); // a tsc without the bundle step
    expect(currentManifest(dir)).toBeUndefined();
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify({ ...m, inputs: [] }));
    expect(currentManifest(dir)).toBeUndefined();
  });
});

describe.runIf(existsSync(join(DIST, MANIFEST_FILE)))('dist/cli/bin.js from the bundle', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 60_000 });

  it('is current after the build, and prints what the modules print', () => {
    expect(currentManifest(DIST)?.cache, 'npm run build writes the bundle, its manifest and its code cache').toBeDefined();
    for (const args of [['--help'], ['run', 'scenarios/getting-started.yaml', '--format', 'json'], ['run', 'scenarios/getting-started.yaml'], ['validate', 'no/such.yaml']]) {
      const bundled = run(args);
      const modules = run(args, { KSS_NO_BUNDLE: '1' });
      expect(bundled.stdout).toBe(modules.stdout);
      expect(bundled.stderr).toBe(modules.stderr);
      expect(bundled.status).toBe(modules.status);
    }
  });

  it('falls back to the modules when one of them changed since the bundle', () => {
    // inside the repo, so that the modules find node_modules
    mkdirSync(join(REPO, '.tmp'), { recursive: true });
    const copy = mkdtempSync(join(REPO, '.tmp', 'bundle-'));
    cpSync(DIST, join(copy, 'dist'), { recursive: true });
    cpSync(join(REPO, 'package.json'), join(copy, 'package.json'));
    const version = join(copy, 'dist/world/run.js');
    writeFileSync(version, readFileSync(version, 'utf8').replace("TOOL_VERSION = '", "TOOL_VERSION = 'changed-"));
    const r = spawnSync(process.execPath, [join(copy, 'dist/cli/bin.js'), '--version'], { encoding: 'utf8' });
    rmSync(copy, { recursive: true, force: true });
    expect(r.stdout).toMatch(/^changed-/);
  });
});
