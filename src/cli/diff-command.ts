// `kss diff <scenario>` (classic against current, or --generations A,B), `kss diff <scenario> --seeds A,B` (one
// generation, two seeds), `kss diff a.jsonl b.jsonl` (two trace files of `kss run --trace`): the two
// timelines aligned, the first divergence in words, the final states side by side. Exit 0 when the
// runs did the same, 1 when they differ, 2 on bad input. `--format mermaid` prints both diagrams
// as Markdown, `--format shiviz` one ShiViz log with the two runs as executions, `--format html` a
// self-contained page of the same.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TraceRecord } from '../model/trace.js';
import { parseDuration } from '../model/time.js';
import { loadScenarioFileCached, renderIssues } from '../scenario/index.js';
import type { Variant } from '../scenario/types.js';
import { runScenario } from '../world/run.js';
import { diffReport, type DiffSide } from '../report/diff-view.js';
import { mermaidLines } from '../report/mermaid.js';
import { shivizMulti } from '../report/shiviz.js';
import { diffHtml } from '../report/diff-html.js';
import { EXIT_FAIL, EXIT_PASS, EXIT_USAGE, type CliIO } from './io.js';
import type { DiffArgs } from './args.js';

export type { DiffArgs };
import { parseTraceHeader } from './replay-command.js';
import { readSource } from './run-command.js';


function readTraceFile(path: string, shown: string): DiffSide | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return `error READ_FAILED at ${shown}: ${(err as Error).message}`;
  }
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const h = parseTraceHeader(lines[0]);
  if (typeof h === 'string') return `error NOT_A_TRACE at ${shown}:1: ${h} (a trace written by kss run --trace)`;
  const trace: TraceRecord[] = [];
  for (let i = 1; i < lines.length; i++) {
    let r: unknown;
    try {
      r = JSON.parse(lines[i]);
    } catch {
      return `error BAD_TRACE at ${shown}:${i + 1}: the line is not JSON`;
    }
    if (r !== null && typeof r === 'object' && typeof (r as TraceRecord).seq === 'number') trace.push(r as TraceRecord);
  }
  return { label: `${shown} (${h.variant}, seed ${h.seed})`, trace };
}

function runSides(a: DiffArgs, io: CliIO): [DiffSide, DiffSide] | string {
  const file = a.inputs[0];
  const path = resolve(io.cwd, file);
  const loaded = loadScenarioFileCached(path, io.scenarioCache);
  if (!loaded.ok) return renderIssues(loaded.issues.map((i) => (i.file === path ? { ...i, file } : i)), readSource(path));
  let untilMs: number | undefined;
  if (a.until !== undefined) {
    untilMs = parseDuration(a.until);
    if (untilMs === undefined || untilMs < 0) return `error BAD_DURATION at --until: expected a Go duration such as 90s or 2m, got ${JSON.stringify(a.until)}`;
  }
  const scenario = { ...loaded.scenario, file };
  if (a.seeds !== undefined) {
    const seeds = a.seeds.split(',').map((s) => s.trim());
    if (seeds.length !== 2 || seeds.some((s) => !/^-?\d+$/.test(s))) return `error BAD_OPTION at --seeds: expected two whole numbers A,B, got ${JSON.stringify(a.seeds)}`;
    const run = (seed: number) => runScenario(scenario, { seed, variant: a.statusManager, untilMs });
    const [x, y] = seeds.map(Number).map(run);
    return [{ label: `seed ${x.seed}`, trace: x.trace }, { label: `seed ${y.seed}`, trace: y.trace }];
  }
  const gens = (a.generations ?? 'classic,current').split(',').map((s) => s.trim());
  const known: readonly string[] = ['classic', 'transitional', 'current'];
  if (gens.length !== 2 || gens.some((g) => !known.includes(g))) return `error BAD_OPTION at --generations: expected two of classic, transitional, current as A,B, got ${JSON.stringify(a.generations)}`;
  const [x, y] = gens.map((g) => runScenario(scenario, { variant: g as Variant, untilMs }));
  return [{ label: gens[0], trace: x.trace }, { label: gens[1], trace: y.trace }];
}

export function diffCommand(a: DiffArgs, io: CliIO): number {
  let sides: [DiffSide, DiffSide] | string;
  if (a.inputs.length === 2) {
    const x = readTraceFile(resolve(io.cwd, a.inputs[0]), a.inputs[0]);
    const y = readTraceFile(resolve(io.cwd, a.inputs[1]), a.inputs[1]);
    sides = typeof x === 'string' ? x : typeof y === 'string' ? y : [x, y];
  } else if (a.inputs.length === 1) sides = runSides(a, io);
  else sides = `error USAGE: kss diff takes a scenario, or two trace files: kss diff <scenario.yaml> | kss diff a.jsonl b.jsonl (got ${a.inputs.length} arguments)`;
  if (typeof sides === 'string') {
    io.stderr(sides + '\n');
    return EXIT_USAGE;
  }
  const [x, y] = sides;
  const report = diffReport(x, y);
  if (a.format === 'mermaid') {
    for (const s of sides) io.stdout(`### ${s.label}\n\n\`\`\`mermaid\n${mermaidLines(s.trace).join('\n')}\n\`\`\`\n\n`);
    io.stdout(report.lines[2] + '\n');
  } else if (a.format === 'html') io.stdout(diffHtml(x, y, report.rows, report.first));
  else if (a.format === 'shiviz') io.stdout(shivizMulti(sides.map((s) => ({ title: s.label, trace: s.trace }))));
  else for (const l of report.lines) io.stdout(l + '\n');
  return report.same ? EXIT_PASS : EXIT_FAIL;
}
