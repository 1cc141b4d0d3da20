// A trace file's header, read back by `kss replay`: checked field by field (a seed of 1.5 or an
// `until` of -1 is refused, not run), and the scenario it names found by file name and sha256.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { DrivenInfo } from '../engine/index.js';
import type { Variant } from '../scenario/types.js';
import { discoverScenarios } from '../testing/discover.js';
import { checkScenarioSource, sourceErrorText } from '../testing/source.js';
import { echo } from './options.js';

export interface TraceHeader {
  kss: string;
  type: 'header';
  scenario: string;
  /** The scenario's file name (older traces: the path as it was given). */
  file: string;
  sha256: string;
  seed: number;
  variant: Variant;
  until: number;
  /** The event limit of the run (absent in older traces: the default). */
  maxEvents?: number;
  /** How a driven run was driven (absent for a plain seeded run). */
  choices?: DrivenInfo;
}

/** The header of a trace file, or why it is not one. */
export function parseTraceHeader(line: string | undefined): TraceHeader | string {
  if (line === undefined || line.trim() === '') return 'the file is empty';
  let h: unknown;
  try {
    h = JSON.parse(line);
  } catch {
    return 'line 1 is not JSON';
  }
  if (h === null || typeof h !== 'object' || (h as { type?: unknown }).type !== 'header') return 'line 1 is not a kss trace header ({"type":"header",…})';
  const o = h as Record<string, unknown>;
  const want: Array<[string, string]> = [
    ['kss', 'string'],
    ['file', 'string'],
    ['sha256', 'string'],
    ['seed', 'number'],
    ['variant', 'string'],
    ['until', 'number'],
  ];
  for (const [k, t] of want) if (typeof o[k] !== t) return `the header has no ${t} field ${JSON.stringify(k)}`;
  if (o.variant !== 'classic' && o.variant !== 'transitional' && o.variant !== 'current') return `the header's variant is ${echo(String(o.variant))}, expected "classic", "transitional" or "current"`;
  if (!Number.isSafeInteger(o.seed)) return `the header's seed is ${String(o.seed)}: expected a whole number`;
  if (!Number.isSafeInteger(o.until) || (o.until as number) < 0) return `the header's until is ${String(o.until)}: expected a whole number of ms ≥ 0`;
  if (o.maxEvents !== undefined && (!Number.isSafeInteger(o.maxEvents) || (o.maxEvents as number) < 1)) return `the header's maxEvents is ${String(o.maxEvents)}: expected a whole number ≥ 1`;
  if (!/^[0-9a-f]{64}$/.test(o.sha256 as string)) return `the header's sha256 is ${echo(String(o.sha256))}: expected 64 hex digits`;
  return h as TraceHeader;
}

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export type Located = { ok: true; path: string } | { ok: false; message: string };

/** Where the trace's scenario is: the file named on the command line; else the header's file
 *  name beside the trace, then here; else any scenario under here with the header's sha256. */
export function locateScenario(header: TraceHeader, tracePath: string, cwd: string, given?: string): Located {
  if (given !== undefined) {
    const abs = resolve(cwd, given);
    const src = checkScenarioSource(abs, given);
    return src.ok ? { ok: true, path: abs } : { ok: false, message: sourceErrorText(given, src) };
  }
  const name = basename(header.file);
  const candidates = [...new Set([resolve(dirname(tracePath), name), resolve(cwd, name), resolve(cwd, header.file), resolve(dirname(tracePath), header.file)])];
  const matching = (p: string) => existsSync(p) && checkScenarioSource(p, p).ok && sha256File(p) === header.sha256;
  const hit = candidates.find(matching);
  if (hit !== undefined) return { ok: true, path: hit };
  const found = discoverScenarios([cwd], cwd).files.slice(0, 10_000);
  const bySha = found.find((f) => checkScenarioSource(f.abs, f.display, f.tree).ok && sha256File(f.abs) === header.sha256);
  if (bySha !== undefined) return { ok: true, path: bySha.abs };
  const byName = candidates.find((p) => existsSync(p)) ?? found.find((f) => basename(f.abs) === name)?.abs;
  if (byName !== undefined) {
    return {
      ok: false,
      message:
        `error SCENARIO_CHANGED: ${byName} changed since the trace was written: its sha256 is ${sha256File(byName)}, the trace has ${header.sha256}; ` +
        `a replay would run another scenario (restore the file, or write a new trace with kss run ${name} --trace FILE)`,
    };
  }
  return {
    ok: false,
    message: `error SCENARIO_MISSING: the trace's scenario ${name} (sha256 ${header.sha256.slice(0, 12)}…) is not beside the trace, nor here, nor under here; name it: kss replay ${basename(tracePath)} <scenario.yaml>`,
  };
}
