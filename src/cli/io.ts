// The CLI's window on the world, injectable so tests run main() in-process.
export interface CliIO {
  stdout(s: string): void;
  stderr(s: string): void;
  /** Colour output (TTY and no NO_COLOR). */
  color: boolean;
  cwd: string;
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
