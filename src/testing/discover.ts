// Finding the scenario files of a suite, and choosing which of them a run takes (filters, shards).
//
// Discovery rules (README "kss test"):
// - a path that names a file is taken as it is, whatever its name;
// - a path that names a folder is walked recursively for `*.yaml` / `*.yml` files, skipping
//   golden files (`*.golden.*`), and every folder met *during the walk* that is named `fixtures`
//   or `bad` (deliberately broken or helper scenarios), `node_modules`, or starts with a dot; the
//   folder you name yourself is always walked, so `kss test test/fixtures/cli` works;
// - the result is de-duplicated and sorted by its path relative to the working directory, by
//   UTF-16 code units (not locale order), so every machine sees the same order, and shards agree.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['fixtures', 'bad', 'node_modules']);

export interface DiscoveredFile {
  /** Absolute path. */
  abs: string;
  /** Path relative to the working directory, with `/` separators (absolute when outside it). */
  display: string;
}

export interface Discovery {
  files: DiscoveredFile[];
  /** Golden files met in the walk whose scenario (`<name>.yaml` / `.yml`) is gone, as shown. */
  orphanGoldens: string[];
  /** Paths given that do not exist. */
  missing: string[];
}

export function isScenarioFileName(name: string): boolean {
  return /\.ya?ml$/i.test(name) && !/\.golden\./i.test(name);
}

export function displayPath(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  const p = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
  return sep === '/' ? p : p.split(sep).join('/');
}

function walk(dir: string, out: string[], goldens: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    let isDir = e.isDirectory();
    let isFile = e.isFile();
    if (e.isSymbolicLink()) {
      try {
        const st = statSync(p);
        isDir = st.isDirectory();
        isFile = st.isFile();
      } catch {
        continue; // a dangling link
      }
    }
    if (isDir) {
      if (SKIPPED_DIRS.has(e.name) || e.name.startsWith('.')) continue;
      walk(p, out, goldens);
    } else if (isFile && isScenarioFileName(e.name)) out.push(p);
    else if (isFile && e.name.endsWith('.golden.jsonl')) goldens.push(p);
  }
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function discoverScenarios(paths: readonly string[], cwd: string): Discovery {
  const found: string[] = [];
  const goldens: string[] = [];
  const missing: string[] = [];
  for (const p of paths) {
    const abs = resolve(cwd, p);
    let st;
    try {
      st = statSync(abs);
    } catch {
      missing.push(p);
      continue;
    }
    if (st.isDirectory()) walk(abs, found, goldens);
    else found.push(abs);
  }
  const seen = new Set<string>();
  const files: DiscoveredFile[] = [];
  for (const abs of found) {
    if (seen.has(abs)) continue;
    seen.add(abs);
    files.push({ abs, display: displayPath(abs, cwd) });
  }
  files.sort((a, b) => compareCodeUnits(a.display, b.display));
  const orphanGoldens = goldens
    .filter((g) => {
      const stem = g.slice(0, -'.golden.jsonl'.length);
      return !existsSync(stem + '.yaml') && !existsSync(stem + '.yml');
    })
    .map((g) => displayPath(g, cwd))
    .sort(compareCodeUnits);
  return { files, orphanGoldens, missing };
}

// ---- shards ------------------------------------------------------------------------------------

export interface Shard {
  index: number; // 1-based
  count: number;
}

/** `i/n` with 1 ≤ i ≤ n; undefined when malformed. */
export function parseShard(s: string): Shard | undefined {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(s);
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) return undefined;
  return { index, count };
}

/** The items of shard i of n: those whose position p in the (sorted) list has p % n == i-1.
 *  Shards 1..n together take every item exactly once. */
export function takeShard<T>(items: readonly T[], shard: Shard | undefined): T[] {
  if (shard === undefined) return [...items];
  return items.filter((_, p) => p % shard.count === shard.index - 1);
}
