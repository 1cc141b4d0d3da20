// The CLI's window on the world, injectable so tests run main() in-process.
import { isAbsolute, join } from 'node:path';
import type { ScenarioCache } from '../scenario/index.js';

export interface CliIO {
  stdout(s: string): void;
  stderr(s: string): void;
  /** Colour output (TTY and no NO_COLOR). */
  color: boolean;
  cwd: string;
  /** Where large scenarios that loaded cleanly are kept (load-cache.ts); absent: no cache. */
  scenarioCache?: ScenarioCache;
}

/** The scenario cache of a kss built as `build` (the bundle's hash; undefined: the modules as tsc
 *  built them, which have no identity, so no cache): under KSS_CACHE_DIR, else
 *  $XDG_CACHE_HOME/kss, else ~/.cache/kss; none with KSS_NO_CACHE set (to anything but 0). */
export function scenarioCacheOf(env: NodeJS.ProcessEnv, build: string | undefined, home: string): ScenarioCache | undefined {
  if (build === undefined || (env.KSS_NO_CACHE !== undefined && env.KSS_NO_CACHE !== '' && env.KSS_NO_CACHE !== '0')) return undefined;
  const xdg = env.XDG_CACHE_HOME !== undefined && isAbsolute(env.XDG_CACHE_HOME) ? join(env.XDG_CACHE_HOME, 'kss') : undefined;
  const root = env.KSS_CACHE_DIR || xdg || (home !== '' ? join(home, '.cache', 'kss') : undefined);
  return root === undefined ? undefined : { dir: join(root, 'scenarios'), build };
}

export const EXIT_PASS = 0;
export const EXIT_FAIL = 1;
export const EXIT_USAGE = 2;

/** Colour: FORCE_COLOR decides when set (0 or false: never; anything else: always), then
 *  NO_COLOR (never), else a terminal on stdout. */
export function wantColor(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !(force === '0' || force.toLowerCase() === 'false');
  if ('NO_COLOR' in env) return false;
  return isTTY;
}
