// The plain, structured-cloneable values that travel between the suite runner and its workers.
import type { Scenario, Variant } from '../scenario/types.js';

export type GoldenMode = 'check' | 'update' | 'off';

/** One test case: one scenario file under one seed. */
export interface CaseSpec {
  /** Position in the sorted suite; results are reported in this order. */
  id: number;
  /** Absolute path of the scenario file. */
  abs: string;
  /** The path as shown and as put in replay commands (relative to the working directory). */
  display: string;
  /** The real path of the tree the file was found in: a link out of it is refused. */
  tree?: string;
  /** Seed to run with; undefined: the scenario's own. */
  seed?: number;
  /** Status manager generation; undefined: the scenario's own. */
  variant?: Variant;
  /** Whether this case checks (or updates) the golden file: only the scenario's own seed and variant. */
  golden: boolean;
  /** Part of a multi-seed run: the case's name carries its seed. */
  multiSeed: boolean;
  goldenMode: GoldenMode;
  /** With --ci a missing golden fails the case. */
  ci: boolean;
  maxEvents?: number;
  /** Reached through a symbolic link: --update refuses to write its golden. */
  viaLink?: boolean;
  /** A note the case carries (e.g. its seed is pinned). */
  note?: string;
  /** The scenario as the plan loaded it (so a case does not read and parse its file again; a
   *  worker thread receives a copy). Without it, the case loads `abs` itself. */
  scenario?: Scenario;
}

export type GoldenState =
  | 'match' // the run's decisions equal the golden
  | 'mismatch' // they differ: `diff` says where
  | 'missing' // no golden file (a failure with --ci, a note otherwise)
  | 'created' // --update wrote a new golden
  | 'updated' // --update rewrote a golden that differed
  | 'unchanged'; // --update found the golden already right

export interface GoldenOutcome {
  state: GoldenState;
  /** The golden file's path, as shown. */
  path: string;
  diff?: string[];
  /** Where the golden and the run first differ, in words (line, field, expected vs got). */
  first?: string;
  /** --update: what the suite's main thread is to write (absolute path, lines); gone from results. */
  write?: { abs: string; lines: string[] };
}

export type CaseStatus = 'pass' | 'fail' | 'skipped';

export interface CaseResult {
  id: number;
  /** Scenario file, as shown. */
  file: string;
  /** metadata.name (the file's path when it did not load). */
  name: string;
  /** The test case's name: the scenario's name, plus ` [seed N]` in multi-seed runs. */
  caseName: string;
  seed?: number;
  variant?: Variant;
  tags: string[];
  status: CaseStatus;
  /** Why it failed, one entry per cause, each possibly several lines: failing assertions,
   *  unexpected invariant violations, step errors, a runaway run, a golden mismatch, load issues,
   *  a crash. Plain text (no colour). */
  failures: string[];
  /** The scenario did not load: its rendered issues are in `failures`. */
  invalid?: boolean;
  /** The run crashed (a programmer error): the stack is in `failures`. */
  crashed?: boolean;
  /** Assertions that held, for reports. */
  passedAssertions?: number;
  golden?: GoldenOutcome;
  notes: string[];
  /** The command that replays this case. */
  replay?: string;
  events?: number;
  /** Wall time of the run (not deterministic: for reports only). */
  durationMs: number;
}
