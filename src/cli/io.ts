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
