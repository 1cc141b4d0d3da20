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
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isInside } from './source.js';

export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['fixtures', 'bad', 'node_modules']);

export interface DiscoveredFile {
  /** Absolute path. */
  abs: string;
  /** Path relative to the working directory, with `/` separators (absolute when outside it). */
  display: string;
  /** The real path of the tree it was found in (the walk's root, or a named file's folder). */
  tree: string;
  /** Reached through a symbolic link (a linked file or folder): --update writes no golden there. */
  viaLink: boolean;
}

export interface Discovery {
  files: DiscoveredFile[];
  /** Golden files met in the walk whose scenario (`<name>.yaml` / `.yml`) is gone, as shown. */
  orphanGoldens: string[];
  /** Paths given that do not exist. */
  missing: string[];
  /** Things met in a walk that are refused (a link leaving the tree, a folder that cannot be
   *  read), as shown, with the error code to show. */
  refused: Array<{ display: string; code: 'OUTSIDE_TREE' | 'PERMISSION'; message: string }>;
}

export function isScenarioFileName(name: string): boolean {
  return /\.ya?ml$/i.test(name) && !/\.golden\./i.test(name);
}

export function displayPath(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  const p = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
  return sep === '/' ? p : p.split(sep).join('/');
}

interface Walk {
  cwd: string;
  tree: string;
  /** Real paths of the folders walked so far: a link back into one is a loop, walked once. */
  visited: Set<string>;
  out: DiscoveredFile[];
  goldens: string[];
  refused: Discovery['refused'];
}

function walk(dir: string, w: Walk, viaLink: boolean): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') w.refused.push({ display: displayPath(dir, w.cwd), code: 'PERMISSION', message: 'permission denied: the folder cannot be read, so its scenarios cannot run' });
    return;
  }
  // Real entries before links, each by name: a folder reached both ways is walked by its real
  // path (so --update writes its goldens), and the walk is the same on every machine.
  entries.sort((a, b) => Number(a.isSymbolicLink()) - Number(b.isSymbolicLink()) || compareCodeUnits(a.name, b.name));
  for (const e of entries) {
    const p = join(dir, e.name);
    let isDir = e.isDirectory();
    let isFile = e.isFile();
    const link = e.isSymbolicLink();
    if (link) {
      let real: string;
      try {
        real = realpathSync(p);
        const st = statSync(real);
        isDir = st.isDirectory();
        isFile = st.isFile();
      } catch {
        if (isScenarioFileName(e.name)) w.out.push({ abs: p, display: displayPath(p, w.cwd), tree: w.tree, viaLink: true }); // the check says why
        continue;
      }
      if (isDir && !(SKIPPED_DIRS.has(e.name) || e.name.startsWith('.')) && !isInside(real, w.tree)) {
        w.refused.push({ display: displayPath(p, w.cwd), code: 'OUTSIDE_TREE', message: `a symbolic link to a folder outside the tree (${w.tree}); kss does not follow it` });
        continue;
      }
    }
    if (isDir) {
      if (SKIPPED_DIRS.has(e.name) || e.name.startsWith('.')) continue;
      const real = realpathSync(p);
      if (w.visited.has(real)) continue; // a loop, or a second way to the same folder
      w.visited.add(real);
      walk(p, w, viaLink || link);
    } else if (isScenarioFileName(e.name)) w.out.push({ abs: p, display: displayPath(p, w.cwd), tree: w.tree, viaLink: viaLink || link });
    else if (isFile && e.name.endsWith('.golden.jsonl')) w.goldens.push(p);
  }
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function discoverScenarios(paths: readonly string[], cwd: string): Discovery {
  const found: DiscoveredFile[] = [];
  const goldens: string[] = [];
  const missing: string[] = [];
  const refused: Discovery['refused'] = [];
  for (const p of paths) {
    const abs = resolve(cwd, p);
    let st;
    try {
      st = statSync(abs);
    } catch {
      let dangling = false;
      try {
        dangling = lstatSync(abs).isSymbolicLink();
      } catch {
        /* missing */
      }
      if (dangling) found.push({ abs, display: displayPath(abs, cwd), tree: realOrDir(abs), viaLink: true });
      else missing.push(p);
      continue;
    }
    const rootIsLink = throughLink(abs, cwd);
    if (st.isDirectory()) {
      const tree = realpathSync(abs);
      walk(abs, { cwd, tree, visited: new Set([tree]), out: found, goldens, refused }, rootIsLink);
    } else found.push({ abs, display: displayPath(abs, cwd), tree: realOrDir(abs), viaLink: rootIsLink });
  }
  const seen = new Set<string>();
  const files: DiscoveredFile[] = [];
  for (const f of found) {
    if (seen.has(f.abs)) continue;
    seen.add(f.abs);
    files.push(f);
  }
  files.sort((a, b) => compareCodeUnits(a.display, b.display));
  const orphanGoldens = goldens
    .filter((g) => {
      const stem = g.slice(0, -'.golden.jsonl'.length);
      return !existsSync(stem + '.yaml') && !existsSync(stem + '.yml');
    })
    .map((g) => displayPath(g, cwd))
    .sort(compareCodeUnits);
  return { files, orphanGoldens, missing, refused };
}

/** Is a named path reached through a symbolic link (itself, or a folder on the way below cwd)? */
function throughLink(abs: string, cwd: string): boolean {
  if (lstatSync(abs).isSymbolicLink()) return true;
  const real = realpathSync(abs);
  const rel = relative(cwd, abs);
  if (!rel.startsWith('..') && !isAbsolute(rel)) {
    try {
      return real !== join(realpathSync(cwd), rel);
    } catch {
      return true;
    }
  }
  return real !== abs;
}

/** The real path of a named file's folder (its tree). */
function realOrDir(abs: string): string {
  const dir = resolve(abs, '..');
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
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
