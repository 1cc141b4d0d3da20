// A cache of loaded scenarios, for the CLI's single-scenario commands (kss run, inspect, explore,
// diff, replay): a large file that loaded cleanly once is loaded next time from one file holding
// the Scenario (and its warnings) as V8 serialized it, not parsed and checked again — for
// node-110 (316 KB) about 4 ms instead of 130–190 ms.
//
// The key is the sha256 of: the build of kss (the bundle's hash, so any change to any code of kss
// or of its dependencies makes a new key), the Node version, the path as given (the Scenario names
// it) and the sha256 of the file's bytes. Only a load that succeeded is kept: a file with errors is
// read the full way every time, so what is reported, and where, is exactly what the loader says.
// A hit is checked against its key; an entry that cannot be read or does not match is ignored,
// and the file is loaded as if there were no cache. An entry is written whole (a temporary file,
// then rename) and the cache holds at most `maxEntries` files (the least recently used go). A
// cache that cannot be written (a read-only home) costs nothing but the miss.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { loadScenarioRead, sha256, type LoadResult } from './load.js';
import { readScenarioText } from './read.js';

export interface ScenarioCache {
  /** The folder of the entries (created when first written). */
  dir: string;
  /** What identifies the code that loads: an entry written by another build is never read. */
  build: string;
  /** Files smaller than this load the full way and are not kept (default 32 KiB: below it a load
   *  takes a few milliseconds). */
  minBytes?: number;
  /** At most this many entries (default 64). */
  maxEntries?: number;
}

const FORMAT = 'kss-scenario-cache/1';
const MIN_BYTES = 32 * 1024;
const MAX_ENTRIES = 64;

interface Entry {
  format: typeof FORMAT;
  key: string;
  result: LoadResult & { ok: true };
}

/** loadScenarioFile(path), through the cache when there is one. */
export function loadScenarioFileCached(path: string, cache: ScenarioCache | undefined): LoadResult {
  const r = readScenarioText(path);
  if ('issue' in r) return { ok: false, issues: [r.issue] };
  const hash = sha256(r.bytes);
  if (cache === undefined || r.bytes.length < (cache.minBytes ?? MIN_BYTES)) return loadScenarioRead(r.text, path, hash);
  const key = sha256(`${FORMAT}\0${cache.build}\0${process.version}\0${path}\0${hash}`);
  const file = join(cache.dir, `${key}.v8`);
  const hit = readEntry(file, key);
  if (hit !== undefined) return hit;
  const result = loadScenarioRead(r.text, path, hash);
  if (result.ok) writeEntry(cache, file, { format: FORMAT, key, result });
  return result;
}

function readEntry(file: string, key: string): LoadResult | undefined {
  let entry: Entry;
  try {
    entry = deserialize(readFileSync(file)) as Entry;
  } catch {
    return undefined; // absent, unreadable or not ours
  }
  if (entry?.format !== FORMAT || entry.key !== key || entry.result?.ok !== true) return undefined;
  try {
    const now = new Date(); // wall-clock-ok: an entry's last use, for the cache's LRU
    utimesSync(file, now, now); // recently used
  } catch {
    // a read-only cache still serves
  }
  return entry.result;
}

function writeEntry(cache: ScenarioCache, file: string, entry: Entry): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(cache.dir, { recursive: true });
    writeFileSync(tmp, serialize(entry));
    renameSync(tmp, file);
    prune(cache.dir, cache.maxEntries ?? MAX_ENTRIES);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // never written
    }
  }
}

/** Remove the least recently used entries beyond `max`. */
function prune(dir: string, max: number): void {
  const names = readdirSync(dir).filter((n) => n.endsWith('.v8'));
  if (names.length <= max) return;
  const aged = names.flatMap((n) => {
    try {
      return [{ n, t: statSync(join(dir, n)).mtimeMs }];
    } catch {
      return [];
    }
  });
  aged.sort((a, b) => a.t - b.t || (a.n < b.n ? -1 : 1));
  for (const { n } of aged.slice(0, aged.length - max)) {
    try {
      unlinkSync(join(dir, n));
    } catch {
      // removed by another kss meanwhile
    }
  }
}
