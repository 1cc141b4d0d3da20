// `kss explore <scenario>`: search a scenario's faults and the kubelet's choices for failures,
// shrink each find to a plain scenario, and write them (README "Exploring"); `kss explore merge
// DIR...` folds shard results into one report.
//
// Exit codes: 0 nothing found; 1 at least one find; 2 bad input or usage.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { loadScenarioFileCached, renderIssues } from '../scenario/index.js';
import { parseDuration } from '../model/time.js';
import { makeChalk } from '../report/pretty.js';
import { explore, type ExploreResult } from '../explore/explore.js';
import { parseShardSpec, shardFromEnv, type Shard } from '../explore/parallel.js';
import { junitOf, mergeReports, MergeError, reportJson, writeOutput } from '../explore/report.js';
import { ShrinkError } from '../explore/finish.js';
import { choiceLogAvailable } from '../explore/choices.js';
import type { ExploreReport, Oracle, Progress } from '../explore/types.js';
import { EXIT_FAIL, EXIT_PASS, EXIT_USAGE, type CliIO } from './io.js';
import type { ExploreArgs } from './args.js';

export type { ExploreArgs };


const usage = (io: CliIO, msg: string) => {
  io.stderr(`error USAGE: ${msg}\n`);
  return EXIT_USAGE;
};

export async function exploreCommand(a: ExploreArgs, io: CliIO): Promise<number> {
  if (a.scenario === 'merge') return mergeCommand(a, io);
  if (a.dirs && a.dirs.length > 0) return usage(io, `kss explore takes one scenario (got also ${a.dirs.join(' ')}); to fold shard results: kss explore merge DIR...`);
  if (a.runs !== undefined && a.time !== undefined) return usage(io, 'give --runs N or --time D, not both');
  let timeMs: number | undefined;
  if (a.time !== undefined) {
    timeMs = parseDuration(a.time);
    if (timeMs === undefined || timeMs <= 0) return usage(io, `--time: expected a Go duration such as 30s or 5m, got ${JSON.stringify(a.time)}`);
  }
  let shard: Shard | undefined;
  if (a.shard !== undefined && a.shardFromEnv) return usage(io, 'give --shard i/n or --shard-from-env, not both');
  if (a.shard !== undefined) {
    shard = parseShardSpec(a.shard);
    if (shard === undefined) return usage(io, `--shard: expected i/n with 1 ≤ i ≤ n, got ${JSON.stringify(a.shard)}`);
  } else if (a.shardFromEnv) {
    const s = shardFromEnv(a.env ?? process.env, a.shardTotal);
    if (typeof s === 'string') return usage(io, `--shard-from-env: ${s}`);
    shard = s;
  }
  const path = resolve(io.cwd, a.scenario);
  const loaded = loadScenarioFileCached(path, io.scenarioCache);
  if (!loaded.ok) {
    const issues = loaded.issues.map((i) => (i.file === path ? { ...i, file: a.scenario } : i));
    let text: string | undefined;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      /* no code frame */
    }
    io.stderr(renderIssues(issues, text) + '\n');
    return EXIT_USAGE;
  }
  const scenario = { ...loaded.scenario, file: a.scenario };
  if ((a.strategy ?? 'random') !== 'random' && !choiceLogAvailable(scenario)) return usage(io, `--strategy ${a.strategy}: needs the kubelet's choice log, which this build does not have; use --strategy random`);
  const tty = a.tty ?? (process.stderr.isTTY === true && !a.ci);
  const show = progressDisplay(io, tty, scenario.name);
  let res: ExploreResult;
  try {
    res = await explore(scenario, {
      source: readFileSync(path, 'utf8'),
      runs: a.runs,
      timeMs,
      seed: a.seed,
      jobs: a.jobs,
      shard,
      oracle: a.oracle,
      strategy: a.strategy,
      depth: a.depth,
      maxDeviations: a.maxDeviations,
      shrink: a.shrink,
      onProgress: show.update,
    });
  } catch (e) {
    show.stop();
    if (e instanceof ShrinkError) {
      io.stderr(`error SHRINK: ${e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
  show.stop();
  const out = resolve(io.cwd, a.out ?? 'kss-explore');
  try {
    writeOutput(out, res);
  } catch (e) {
    return usage(io, `--out: could not write ${out}: ${(e as Error).message}`);
  }
  const rel = relative(io.cwd, out) || '.';
  if (a.reporter === 'json') io.stdout(reportJson(res.report));
  else if (a.reporter === 'junit') io.stdout(junitOf(res.report));
  else for (const l of prettyReport(res, rel, io.color)) io.stdout(l + '\n');
  return res.finds.length > 0 ? EXIT_FAIL : EXIT_PASS;
}

function prettyReport(res: ExploreResult, outDir: string, color: boolean): string[] {
  const c = makeChalk(color);
  const r = res.report;
  const cov = r.stats.coverage;
  const lines = [
    `${r.scenario.name}: ${r.stats.runs} runs (shard ${r.shard.index}/${r.shard.total}, seed ${r.seed}, ${r.strategy}), ` +
      `${Math.round(r.stats.runs / Math.max(res.timing.searchMs / 1000, 1e-3))} runs/s, coverage ${cov.statusHistories} pod-status histories, ${cov.faultSets} fault sets`,
  ];
  if (r.stats.pct) lines.push(`pct depth ${r.stats.pct.depth}: ${r.stats.pct.ties} tie points, ${r.stats.pct.sources} event sources; each run finds a depth-${r.stats.pct.depth} bug with probability ≥ ${r.stats.pct.bound.toPrecision(3)}`);
  if (cov.exhausted !== undefined) lines.push(cov.exhausted ? `exhaustive: the bounded space was exhausted (${cov.choicePrefixes} choice prefixes)` : `exhaustive: stopped by the budget before the bounded space was exhausted (${cov.choicePrefixes} choice prefixes)`);
  res.finds.forEach((f, i) => {
    const file = join(outDir, 'finds', `${f.id}.yaml`);
    const replay = f.choicesFile ? `kss run ${file} --choices ${join(outDir, f.choicesFile)}` : `kss run ${file}`;
    lines.push(
      `${c.red.bold('FIND')} ${f.id} ×${f.count}: ${f.signature.oracle} ${f.signature.name}, pod role ${f.signature.role}, after ${f.signature.event}` +
        ` — ${f.shrinkRuns > 0 ? "shrunk to" : "as found:"} ${f.shrunk.faults} fault(s), ${f.shrunk.steps} step(s), ${f.shrunk.pods} pod(s) in ${f.shrinkRuns} runs, ${(res.timing.shrinkMs[i] / 1000).toFixed(1)} s`,
      `  ${file}`,
      `  replay: ${replay}`,
    );
  });
  lines.push(res.finds.length === 0 ? c.green(`nothing found in ${r.stats.runs} runs`) : c.red(`${res.finds.length} find(s); report: ${join(outDir, 'report.json')}`));
  return lines;
}

/** A live bar (cli-progress) on a terminal; plain lines every 5 s otherwise. Wall clock is
 *  display only. */
function progressDisplay(io: CliIO, tty: boolean, name: string): { update: (p: Progress) => void; stop: () => void } {
  if (tty) {
    const bar = new cliProgress.SingleBar(
      { format: `${name} [{bar}] {value}/{total} runs | {rate} runs/s | {histories} histories | {finds} finds | ETA {eta_formatted}`, hideCursor: true, stream: process.stderr },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update: (p) => {
        const payload = { rate: Math.round(p.runs / Math.max(p.elapsedMs / 1000, 1e-3)), histories: p.histories, finds: p.finds };
        if (!started) {
          bar.start(p.total ?? p.runs, 0, payload);
          started = true;
        }
        if (p.total === undefined) bar.setTotal(p.runs);
        bar.update(p.runs, payload);
      },
      stop: () => started && bar.stop(),
    };
  }
  let last = -Infinity;
  return {
    update: (p) => {
      if (p.elapsedMs - last < 5_000) return;
      last = p.elapsedMs;
      io.stderr(`explore ${name}: ${p.runs}${p.total !== undefined ? `/${p.total}` : ''} runs, ${Math.round(p.runs / Math.max(p.elapsedMs / 1000, 1e-3))} runs/s, ${p.histories} histories, ${p.finds} finds\n`);
    },
    stop: () => undefined,
  };
}

function mergeCommand(a: ExploreArgs, io: CliIO): number {
  const dirs = a.dirs ?? [];
  if (dirs.length === 0) return usage(io, 'kss explore merge needs the shard folders: kss explore merge DIR... [--out DIR]');
  let merged: ExploreReport;
  try {
    merged = mergeReports(dirs.map((d) => resolve(io.cwd, d)), a.out === undefined ? undefined : resolve(io.cwd, a.out));
  } catch (e) {
    if (e instanceof MergeError) return usage(io, e.message);
    throw e;
  }
  if (a.reporter === 'junit') io.stdout(junitOf(merged));
  else if (a.reporter === 'json' || a.out === undefined) io.stdout(reportJson(merged));
  else io.stdout(`${merged.scenario.name}: ${merged.stats.runs} runs merged from ${dirs.length} shard(s), ${merged.finds.length} find(s) → ${a.out}\n`);
  return merged.finds.length > 0 ? EXIT_FAIL : EXIT_PASS;
}
