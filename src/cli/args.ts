// The parsed arguments each command's handler takes: plain types, shared by the option tables
// (commands.ts, loaded for every command line) and the handlers (loaded only when they run).
import type { Oracle } from '../explore/types.js';
import type { Variant } from '../scenario/types.js';

/** `kss run`'s view options (views-output.ts acts on them). */
export interface ViewArgs {
  pod?: string;
  from?: string;
  to?: string;
  only?: string;
  html?: string;
  traceFormat?: 'jsonl' | 'chrome' | 'shiviz';
}

export interface RunArgs extends ViewArgs {
  scenario: string;
  seed?: number;
  until?: string;
  statusManager?: Variant;
  trace?: string;
  format: 'pretty' | 'json' | 'mermaid';
  stats: boolean;
  verbose: boolean;
  maxEvents?: number;
  quiet?: boolean;
  /** Drive the run from this choices file (docs/choices.md). */
  choices?: string;
  /** Write the run's choices to this file. */
  recordChoices?: string;
  /** Same-instant ties become choice points (left in insertion order unless --choices says). */
  ties?: boolean;
  /** ... drawn from the seed. */
  randomTies?: boolean;
}

export type Reporter = 'pretty' | 'junit' | 'json';

export interface TestArgs {
  paths: string[];
  tag?: string[];
  grep?: string;
  shard?: string;
  seeds?: number;
  seed?: number;
  statusManager?: Variant;
  jobs?: number;
  reporter?: Reporter;
  output?: string;
  update?: boolean;
  ci?: boolean;
  bail?: boolean;
  /** Wall-clock seconds per case (worker mode). */
  timeout?: number;
  maxEvents?: number;
  /** Show passing cases' notes and every case line (default true); false: failures and the summary only. */
  verbose?: boolean;
}

export interface ExploreArgs {
  scenario: string;
  dirs?: string[];
  runs?: number;
  time?: string;
  strategy?: 'random' | 'pct' | 'exhaustive';
  depth?: number;
  maxDeviations?: number;
  seed?: number;
  jobs?: number;
  shard?: string;
  shardFromEnv?: boolean;
  shardTotal?: number;
  oracle?: Oracle;
  out?: string;
  reporter?: 'pretty' | 'json' | 'junit';
  ci?: boolean;
  shrink?: boolean;
  /** Progress display: a live bar on a terminal (default: process.stderr.isTTY and not --ci). */
  tty?: boolean;
  env?: Record<string, string | undefined>;
}

export interface DiffArgs {
  inputs: string[];
  seeds?: string;
  /** "A,B": the two generations (default classic,current). */
  generations?: string;
  statusManager?: Variant;
  until?: string;
  format: 'text' | 'mermaid' | 'shiviz' | 'html';
}

export interface InspectArgs {
  scenario: string;
  at?: string;
  pod?: string;
  seed?: string | number;
  statusManager?: Variant;
}
