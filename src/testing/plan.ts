// Planning a suite: discover the files, check and load each (a file that cannot be read or
// loaded, even one that crashes the parser, is a failing case of its own, never the end of the
// suite), filter, shard, and expand into cases by seed and generation.
import { basename } from 'node:path';
import { loadScenarioFile, type LoadResult } from '../scenario/index.js';
import type { Scenario, Variant } from '../scenario/types.js';
import { goldenPathFor } from '../report/golden.js';
import { renderLoadIssues } from './load.js';
import { discoverScenarios, parseShard, takeShard, type DiscoveredFile, type Shard } from './discover.js';
import { checkScenarioSource, sourceErrorText } from './source.js';
import type { CaseResult, CaseSpec, GoldenMode } from './types.js';

export class SuiteUsageError extends Error {}

export interface PlanOptions {
  /** Base of relative paths, and of the paths shown (default process.cwd()). */
  cwd?: string;
  /** Keep scenarios that have any of these tags. */
  tags?: readonly string[];
  /** Keep scenarios whose name or path matches. */
  grep?: RegExp | string;
  /** `i/n`: the i-th of n disjoint parts of the sorted, filtered list. */
  shard?: Shard | string;
  /** Run each scenario under this many consecutive seeds (default 1). */
  seeds?: number;
  /** First seed (default: each scenario's own spec.seed). */
  seed?: number;
  /** Status manager generation for every case (default: each scenario's own). */
  variant?: Variant;
  /** check (default) | update (rewrite goldens) | off. */
  golden?: GoldenMode;
  /** A missing golden fails its case. */
  ci?: boolean;
  maxEvents?: number;
}

export interface SuitePlan {
  /** Specs to run and results already known (files that did not load), by id. */
  entries: Array<{ spec: CaseSpec } | { result: CaseResult }>;
  /** Scenario files found before filtering. */
  discovered: number;
  /** Files chosen (after filters and shard). */
  files: DiscoveredFile[];
  /** Golden files whose scenario is gone. */
  orphanGoldens: string[];
}

function toRegExp(grep: RegExp | string): RegExp {
  if (grep instanceof RegExp) return grep;
  try {
    return new RegExp(grep);
  } catch (err) {
    throw new SuiteUsageError(`--grep: not a regular expression: ${(err as Error).message}`);
  }
}

function checkOptions(opts: PlanOptions): { seeds: number; shard?: Shard; grep?: RegExp } {
  const seeds = opts.seeds ?? 1;
  if (!Number.isSafeInteger(seeds) || seeds < 1) throw new SuiteUsageError(`--seeds: expected a whole number ≥ 1, got ${seeds}`);
  if (opts.seed !== undefined && !Number.isSafeInteger(opts.seed)) throw new SuiteUsageError(`--seed: expected a whole number, got ${opts.seed}`);
  let shard: Shard | undefined;
  if (opts.shard !== undefined) {
    shard = typeof opts.shard === 'string' ? parseShard(opts.shard) : opts.shard;
    if (shard === undefined || shard.index < 1 || shard.count < 1 || shard.index > shard.count) {
      throw new SuiteUsageError(`--shard: expected i/n with 1 ≤ i ≤ n (e.g. 2/4), got ${JSON.stringify(opts.shard)}`);
    }
  }
  return { seeds, shard, grep: opts.grep !== undefined ? toRegExp(opts.grep) : undefined };
}

type Loaded = { file: DiscoveredFile; load: LoadResult } | { file: DiscoveredFile; problem: string };

/** Check and load one file; a refusal or a crash of the loader is a problem of that file. */
function loadOne(file: DiscoveredFile): Loaded {
  const src = checkScenarioSource(file.abs, file.display, file.tree);
  if (!src.ok) return { file, problem: sourceErrorText(file.display, src) };
  try {
    return { file, load: loadScenarioFile(file.abs) };
  } catch (err) {
    return { file, problem: `${file.display}: error LOAD_CRASHED: the loader failed on this file: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** `x.yaml` and `x.yml` (or `X.yaml`) would share one golden: both are refused. */
function goldenCollisions(files: readonly DiscoveredFile[]): Map<string, string> {
  const byGolden = new Map<string, DiscoveredFile[]>();
  for (const f of files) {
    const g = goldenPathFor(f.abs).toLowerCase();
    byGolden.set(g, [...(byGolden.get(g) ?? []), f]);
  }
  const out = new Map<string, string>();
  for (const group of byGolden.values()) {
    if (group.length < 2) continue;
    const names = group.map((f) => f.display).join(' and ');
    for (const f of group) out.set(f.abs, `${f.display}: error GOLDEN_COLLISION: ${names} would share the golden ${basename(goldenPathFor(f.display))}: rename one of them`);
  }
  return out;
}

function failed(id: number, file: DiscoveredFile, failure: string): CaseResult {
  return { id, file: file.display, name: file.display, caseName: file.display, tags: [], status: 'fail', invalid: true, failures: [failure], notes: [], durationMs: 0 };
}

/** The cases of one scenario: one per seed, or one with a note when a setting is pinned. */
function casesOf(file: DiscoveredFile, sc: Scenario, opts: PlanOptions, seeds: number, firstId: number): SuitePlan['entries'] {
  const out: SuitePlan['entries'] = [];
  const own = sc.kubelet.statusManager;
  if (opts.variant !== undefined && opts.variant !== own && sc.pinned.includes('statusManager')) {
    const why = `skipped: the scenario is for the ${own} status manager only (spec.pinned: [statusManager]), not ${opts.variant}`;
    out.push({ result: { id: firstId, file: file.display, name: sc.name, caseName: sc.name, seed: sc.seed, variant: opts.variant, tags: [...sc.tags], status: 'skipped', failures: [], notes: [why], durationMs: 0 } });
    return out;
  }
  const seedPinned = sc.pinned.includes('seed') && (opts.seed !== undefined || seeds > 1);
  const first = seedPinned ? sc.seed : (opts.seed ?? sc.seed);
  const variant = opts.variant ?? own;
  for (let k = 0; k < (seedPinned ? 1 : seeds); k++) {
    const seed = first + k;
    out.push({
      spec: {
        id: firstId + out.length,
        abs: file.abs,
        display: file.display,
        tree: file.tree,
        viaLink: file.viaLink,
        seed,
        variant,
        // Goldens record the scenario's own seed and generation only.
        golden: seed === sc.seed && variant === own,
        multiSeed: seeds > 1,
        goldenMode: opts.golden ?? 'check',
        ci: opts.ci ?? false,
        maxEvents: opts.maxEvents,
        note: seedPinned ? `runs under its own seed ${sc.seed} only (spec.pinned: [seed])` : undefined,
        scenario: sc,
      },
    });
  }
  return out;
}

/** Discover, filter, shard and expand into cases. Throws SuiteUsageError for bad options. */
export function planSuite(paths: readonly string[], opts: PlanOptions = {}): SuitePlan {
  const cwd = opts.cwd ?? process.cwd();
  const { seeds, shard, grep } = checkOptions(opts);
  const found = discoverScenarios(paths, cwd);
  if (found.missing.length > 0) throw new SuiteUsageError(`no such file or folder: ${found.missing.join(', ')}`);
  if (found.files.length === 0 && found.refused.length === 0) throw new SuiteUsageError(`no scenario files (*.yaml, *.yml) under ${paths.join(', ')}`);
  const tags = opts.tags ?? [];
  const collisions = goldenCollisions(found.files);
  const chosen: Loaded[] = [];
  for (const r of found.refused) {
    const file = { abs: r.display, display: r.display, tree: '', viaLink: true };
    if (grep === undefined || grep.test(r.display)) chosen.push({ file, problem: `${r.display}: error ${r.code}: ${r.message}` });
  }
  for (const file of found.files) {
    const clash = collisions.get(file.abs);
    const l = clash !== undefined ? { file, problem: clash } : loadOne(file);
    if ('load' in l && l.load.ok) {
      const sc = l.load.scenario;
      if (tags.length > 0 && !sc.tags.some((t) => tags.includes(t))) continue;
      if (grep !== undefined && !(grep.test(sc.name) || grep.test(file.display))) continue;
    } else if (grep !== undefined && !grep.test(file.display)) {
      // A file that does not load has no name or tags to filter on; it stays unless --grep rules
      // its path out: a broken file in the suite is a failure, never silently skipped.
      continue;
    }
    chosen.push(l);
  }
  chosen.sort((a, b) => (a.file.display < b.file.display ? -1 : a.file.display > b.file.display ? 1 : 0));
  const mine = takeShard(chosen, shard);
  const entries: SuitePlan['entries'] = [];
  for (const l of mine) {
    if ('problem' in l) entries.push({ result: failed(entries.length, l.file, l.problem) });
    else if (!l.load.ok) entries.push({ result: failed(entries.length, l.file, renderLoadIssues(l.load, l.file.abs, l.file.display)) });
    else entries.push(...casesOf(l.file, l.load.scenario, opts, seeds, entries.length));
  }
  return { entries, discovered: found.files.length, files: mine.map((m) => m.file), orphanGoldens: found.orphanGoldens };
}
