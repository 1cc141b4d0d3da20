// What a search leaves behind: `--out DIR` with report.json and finds/<id>.{yaml,trace.jsonl,
// explain.txt,issue.md}; the pretty and JUnit renderings; and `kss explore merge`, which folds
// shard reports into the report one run would have written.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../report/atomic.js';
import { junitXml, type JUnitCase } from '../report/junit.js';
import type { ExploreResult } from './explore.js';
import type { ExploreReport } from './types.js';

export const FIND_FILES = ['.yaml', '.choices.json', '.trace.jsonl', '.explain.txt', '.issue.md'] as const;

export function reportJson(r: ExploreReport): string {
  return JSON.stringify(r, null, 2) + '\n';
}

/** Write report.json and every find's files under `dir` (each file whole or not at all). */
export function writeOutput(dir: string, res: ExploreResult): void {
  mkdirSync(join(dir, 'finds'), { recursive: true });
  for (const f of res.finds) {
    const base = join(dir, 'finds', f.id);
    writeFileAtomic(base + '.yaml', [f.yaml]);
    writeFileAtomic(base + '.trace.jsonl', [f.trace]);
    writeFileAtomic(base + '.explain.txt', [f.explanation]);
    writeFileAtomic(base + '.issue.md', [f.issue]);
    if (f.choices !== undefined) writeFileAtomic(base + '.choices.json', [f.choices]);
  }
  writeFileAtomic(join(dir, 'report.json'), [reportJson(res.report)]);
}

export function junitOf(r: ExploreReport): string {
  const cases: JUnitCase[] =
    r.finds.length === 0
      ? [{ name: `${r.scenario.name}: ${r.stats.runs} runs, nothing found`, classname: 'kss.explore', timeMs: 0, file: r.scenario.file }]
      : r.finds.map((f) => ({
          name: `${f.signature.oracle} ${f.signature.name} (${f.signature.role})`,
          classname: `kss.explore.${r.scenario.name}`,
          timeMs: 0,
          file: r.scenario.file,
          failure: { message: `${f.count} failing run(s), first at run ${f.firstRun}`, body: `replay: ${f.replay}` },
        }));
  return [...junitXml([{ name: `kss explore ${r.scenario.name}`, timeMs: 0, cases }])].join("");
}

export class MergeError extends Error {}

/** Fold shard reports (each DIR/report.json) into one; copy each chosen find's files to `out`. */
export function mergeReports(dirs: readonly string[], out: string | undefined): ExploreReport {
  const reports = dirs.map((d) => {
    const p = join(d, 'report.json');
    if (!existsSync(p)) throw new MergeError(`${p}: no such file (each DIR must hold a report.json written by kss explore --out DIR)`);
    try {
      return { dir: d, r: JSON.parse(readFileSync(p, 'utf8')) as ExploreReport };
    } catch (e) {
      throw new MergeError(`${p}: not a JSON report: ${(e as Error).message}`);
    }
  });
  const first = reports[0].r;
  const seen = new Set<number>();
  for (const { dir, r } of reports) {
    for (const k of ['sha256'] as const) if (r.scenario[k] !== first.scenario[k]) throw new MergeError(`${dir}: another scenario (sha256 ${r.scenario.sha256.slice(0, 12)} vs ${first.scenario.sha256.slice(0, 12)})`);
    if (r.seed !== first.seed || r.strategy !== first.strategy || r.oracle !== first.oracle || r.runsRequested !== first.runsRequested) throw new MergeError(`${dir}: another search (seed, strategy, oracle or --runs differ)`);
    if (r.shard.total !== first.shard.total) throw new MergeError(`${dir}: shard of ${r.shard.total}, others of ${first.shard.total}`);
    if (seen.has(r.shard.index)) throw new MergeError(`${dir}: shard ${r.shard.index}/${r.shard.total} given twice`);
    seen.add(r.shard.index);
  }
  const union = (f: (r: ExploreReport) => string[]) => [...new Set(reports.flatMap(({ r }) => f(r)))].sort();
  const coverage = { statusHistories: union((r) => r.coverage.statusHistories), faultSets: union((r) => r.coverage.faultSets), choicePrefixes: union((r) => r.coverage.choicePrefixes) };
  const byKey = new Map<string, { f: ExploreReport['finds'][number]; dir: string }>();
  for (const { dir, r } of reports) {
    for (const f of r.finds) {
      const g = byKey.get(f.key);
      if (g === undefined) byKey.set(f.key, { f: { ...f }, dir });
      else {
        const count = g.f.count + f.count;
        if (f.firstRun < g.f.firstRun) byKey.set(f.key, { f: { ...f, count }, dir });
        else g.f.count = count;
      }
    }
  }
  const finds = [...byKey.values()].sort((a, b) => a.f.firstRun - b.f.firstRun || (a.f.key < b.f.key ? -1 : 1));
  if (out !== undefined) {
    mkdirSync(join(out, 'finds'), { recursive: true });
    for (const { f, dir } of finds) for (const ext of FIND_FILES) {
      const src = join(dir, 'finds', f.id + ext);
      if (existsSync(src)) copyFileSync(src, join(out, 'finds', f.id + ext));
    }
  }
  const sum = (g: (r: ExploreReport) => number) => reports.reduce((a, { r }) => a + g(r), 0);
  const merged: ExploreReport = {
    ...first,
    shard: { index: 1, total: 1 },
    stats: {
      runs: sum((r) => r.stats.runs),
      failingRuns: sum((r) => r.stats.failingRuns),
      coverage: { statusHistories: coverage.statusHistories.length, faultSets: coverage.faultSets.length, choicePrefixes: coverage.choicePrefixes.length },
    },
    coverage,
    finds: finds.map((x) => x.f),
  };
  if (out !== undefined) writeFileAtomic(join(out, 'report.json'), [reportJson(merged)]);
  return merged;
}
