// The `replay:` line printed under a failure: a command that runs the same case again, with every
// option that changed the run (seed, generation, end time, event limit). It names `kss` when the
// `kss` found on PATH is this one, else `npx kss` (a clone, or a project that depends on kss).
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatDuration } from '../model/time.js';

export interface ReplayOptions {
  seed: number;
  variant: string;
  /** The end time, when it is not the scenario's own `spec.until`. */
  untilMs?: number;
  /** The event limit, when one was given. */
  maxEvents?: number;
}

let cachedCommand: string | undefined;

function real(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/** `kss` when PATH's `kss` is this package's bin, else `npx kss`. */
export function kssCommand(env: NodeJS.ProcessEnv = process.env): string {
  if (cachedCommand !== undefined && env === process.env) return cachedCommand;
  const ours = real(fileURLToPath(new URL('../cli/bin.js', import.meta.url)));
  let found = false;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const p = join(dir, 'kss');
    try {
      accessSync(p, constants.X_OK);
    } catch {
      continue;
    }
    found = ours !== undefined && real(p) === ours;
    break; // the first kss on PATH is the one a shell runs
  }
  const cmd = found ? 'kss' : 'npx kss';
  if (env === process.env) cachedCommand = cmd;
  return cmd;
}

/** A word for a POSIX shell: as it is when plain, else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

export function replayCommandFor(file: string, o: ReplayOptions, command: string = kssCommand()): string {
  const parts = [command, 'run', shellWord(file), '--seed', String(o.seed), '--status-manager', o.variant];
  if (o.untilMs !== undefined) parts.push('--until', formatDuration(o.untilMs));
  if (o.maxEvents !== undefined) parts.push('--max-events', String(o.maxEvents));
  return parts.join(' ');
}
