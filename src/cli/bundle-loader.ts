// The CLI from its bundle: dist/cli/kss.cjs, every module of the CLI and its dependencies in one
// file (scripts/bundle.mjs builds it with esbuild after tsc), compiled from its V8 code cache
// (kss.cjs.cache, written by the build after a warm-up run, so it holds the bytecode of the
// functions a run calls and a cold `kss run` compiles almost nothing). One file read instead of
// ~200 modules resolved, read and compiled: about a fifth of a cold `kss run` of node-110.
//
// Used only when current. The manifest (kss.cjs.json) names every built module the bundle was made
// from, with its size, mtime and sha1; any module changed since (a `tsc` without the bundle step)
// and bin.ts runs the modules as tsc built them. A module whose mtime moved but whose bytes did
// not (npm pack stamps every file alike) counts as unchanged. The cache is used only with the Node
// that wrote it and when its bytes are the manifest's (V8 checks the source's length, not its text).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import type { main } from './main.js';

export const BUNDLE_FILE = 'cli/kss.cjs';
export const MANIFEST_FILE = 'cli/kss.cjs.json';
export const CACHE_FILE = 'cli/kss.cjs.cache';

/** A file as it was: its path relative to dist/, size, mtime and sha1 (hex). */
export type FileStamp = [path: string, size: number, mtimeMs: number, sha1: string];

export interface BundleManifest {
  kssBundle: 1;
  bundle: FileStamp;
  inputs: FileStamp[];
  /** The code cache, and the Node version (process.version) that wrote it. */
  cache?: FileStamp;
  node?: string;
}

export interface CliModule {
  cli(opts?: { build?: string }): void;
  main: typeof main;
}

/** sha1 in hex; node:crypto loaded only when a file's mtime moved (a few ms of every start else). */
export function sha1(b: Buffer): string {
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return createHash('sha1').update(b).digest('hex');
}

/** The stamp of dist/<rel> now, or undefined when it cannot be read. */
export function stampOf(dist: string, rel: string): FileStamp | undefined {
  try {
    const path = join(dist, rel);
    const s = statSync(path);
    return [rel, s.size, s.mtimeMs, sha1(readFileSync(path))];
  } catch {
    return undefined;
  }
}

/** Is dist/<stamp path> as stamped: the same size, and the same mtime or else the same bytes? */
export function unchanged(dist: string, stamp: FileStamp): boolean {
  let size: number;
  let mtimeMs: number;
  try {
    ({ size, mtimeMs } = statSync(join(dist, stamp[0])));
  } catch {
    return false;
  }
  if (size !== stamp[1]) return false;
  if (mtimeMs === stamp[2]) return true;
  try {
    return sha1(readFileSync(join(dist, stamp[0]))) === stamp[3];
  } catch {
    return false;
  }
}

/** The manifest, when the bundle and every module it was built from are as it says. */
export function currentManifest(dist: string): BundleManifest | undefined {
  let m: BundleManifest;
  try {
    m = JSON.parse(readFileSync(join(dist, MANIFEST_FILE), 'utf8')) as BundleManifest;
  } catch {
    return undefined;
  }
  if (m.kssBundle !== 1 || !Array.isArray(m.inputs) || m.inputs.length === 0 || !unchanged(dist, m.bundle)) return undefined;
  for (const input of m.inputs) if (!unchanged(dist, input)) return undefined;
  return m;
}

const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n})'] as const;

/**
 * The bundle's exports (cli, main) and `build`, the bundle's sha1 (what identifies this kss, for
 * the scenario cache), compiled from the code cache when the manifest has one for
 * this Node; undefined when there is no current bundle. `writeCacheTo`: when the process exits,
 * write the code cache of everything compiled by then to that file (the build's warm-up).
 */
export function loadBundle(dist: string, opts: { writeCacheTo?: string } = {}): (CliModule & { build: string }) | undefined {
  const m = currentManifest(dist);
  if (m === undefined) return undefined;
  const file = join(dist, BUNDLE_FILE);
  let cachedData: Buffer | undefined;
  if (m.cache !== undefined && m.node === process.version && opts.writeCacheTo === undefined && unchanged(dist, m.cache)) {
    try {
      cachedData = readFileSync(join(dist, m.cache[0]));
    } catch {
      cachedData = undefined;
    }
  }
  const script = new Script(WRAPPER[0] + readFileSync(file, 'utf8') + WRAPPER[1], { filename: file, cachedData });
  const fn = script.runInThisContext() as (e: object, r: NodeJS.Require, m: { exports: object }, f: string, d: string) => void;
  const mod = { exports: {} };
  fn.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  const out = opts.writeCacheTo;
  if (out !== undefined) process.on('exit', () => writeFileSync(out, script.createCachedData()));
  return { ...(mod.exports as CliModule), build: m.bundle[3] };
}
