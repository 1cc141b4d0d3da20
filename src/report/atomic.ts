// Output files (traces, reports, goldens, the schema) are written whole or not at all (README
// "Output files"):
// - a regular file, or a new one: a temporary file `.<name>.<pid>.tmp` beside it, then rename;
//   an existing file keeps its mode; a read-only file (no write bit) is refused, not replaced;
// - a symbolic link is followed: its final target is written (temp file beside the target); a
//   link to nothing is refused;
// - `-` and /dev/stdout go to this process's standard output;
// - anything else that is not a regular file — a pipe, a terminal, a device such as
//   /dev/stdout or /dev/full, and every path under /dev/ or /proc/ — is written directly, never
//   replaced; a full device fails with ENOSPC;
// - SIGINT or SIGTERM during a write waits for it to finish (or removes the temporary file),
//   then ends the process as the signal would have.
import { accessSync, chmodSync, closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export class OutputError extends Error {}

/** `-`: standard output. */
export const STDOUT_TARGET = '-';

/** Names of this process's standard output: written through `stdout`, whatever it is (a pipe, a
 *  socket, a terminal, a file). */
const STDOUT_NAMES: ReadonlySet<string> = new Set([STDOUT_TARGET, '/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']);

export function isStdoutTarget(path: string | undefined): boolean {
  return path !== undefined && STDOUT_NAMES.has(path);
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new OutputError(`cannot inspect ${path}: ${(err as Error).message}`);
  }
  let dangling = false;
  try {
    dangling = lstatSync(path).isSymbolicLink();
  } catch {
    /* nothing there: a new file */
  }
  if (dangling) throw new OutputError(`${path} is a symbolic link to a file that does not exist: kss does not create files through it`);
  return undefined;
}

/** Written directly (no temp file, no rename): stdout, pipes, terminals, devices. */
function isDirectTarget(path: string, st: Stats | undefined): boolean {
  return path === STDOUT_TARGET || /^\/(dev|proc)\//.test(path) || (st !== undefined && !st.isFile());
}

/** Check, before any work, that `path` can be written: not a folder, not read-only, its folder
 *  exists (created when missing) and is writable. Throws OutputError saying what is wrong. */
export function prepareOutput(path: string): void {
  if (STDOUT_NAMES.has(path)) return;
  const st = statOrUndefined(path);
  if (st?.isDirectory()) throw new OutputError(`${path} is a folder: name a file`);
  if (isDirectTarget(path, st)) return;
  if (st !== undefined && (st.mode & 0o222) === 0) throw new OutputError(`${path} is read-only (mode ${(st.mode & 0o777).toString(8)}): kss does not replace it; make it writable or choose another file`);
  const dir = dirname(st !== undefined ? realpathSync(path) : resolve(path));
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new OutputError(`cannot write into the folder ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

// ---- the signal guard ---------------------------------------------------------------------------

const inFlight = new Set<string>();
let guard: ((sig: NodeJS.Signals) => void) | undefined;

/** While a temporary file exists, SIGINT/SIGTERM are held: the handler runs once the write is
 *  done (or removes what is left), then re-raises the signal with its default action. */
function holdSignals(): void {
  if (guard !== undefined) return;
  guard = (sig) => {
    for (const tmp of inFlight) {
      try {
        unlinkSync(tmp);
      } catch {
        /* already gone */
      }
    }
    inFlight.clear();
    releaseSignals();
    process.kill(process.pid, sig);
  };
  process.on('SIGINT', guard);
  process.on('SIGTERM', guard);
}

function releaseSignals(): void {
  if (guard === undefined) return;
  process.removeListener('SIGINT', guard);
  process.removeListener('SIGTERM', guard);
  guard = undefined;
}

/** After the write: let a signal that came during it run the guard first, then stop holding
 *  them. */
function releaseSoon(): void {
  // A held signal is handled when the event loop polls. A timer's callback runs in the timers
  // phase; the setImmediate it schedules runs in the check phase of the same turn, after the poll
  // phase: by then a signal that came during the write has met the guard. (A bare setImmediate
  // may run before any poll, and a plain timer may too: the signal would be lost.)
  setTimeout(() => { // wall-clock-ok: not simulation; signal handling only
    setImmediate(() => { // wall-clock-ok
      if (inFlight.size === 0) releaseSignals();
    });
  }, 0);
}

/** Create the temporary file afresh (O_EXCL: never through a link someone put there); one left
 *  by an earlier process of the same pid is removed first. */
function openTemp(tmp: string, mode: number): number {
  try {
    return openSync(tmp, 'wx', mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    unlinkSync(tmp);
    return openSync(tmp, 'wx', mode);
  }
}

/** The temporary file of a write to `path` (the pattern `.<name>.<pid>.tmp`, in .gitignore). */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
}

/** An output file written piece by piece (a trace streamed during a run), with writeFileAtomic's
 *  rules: stdout names go to `stdout`; pipes, terminals and devices are written directly; a file is
 *  written to its temporary file and renamed into place by commit(), never left half-written.
 *  Pieces are buffered up to 1 MiB. With `duringRun` (a stream that lives as long as a run), the
 *  temporary file is created at the first flush only, and signals are held only while commit()
 *  finishes the file: a run stays interruptible (a synchronous run cannot handle a held signal),
 *  and an interrupted run may leave its temporary file `.<name>.<pid>.tmp` behind, never the target
 *  half-written. */
export interface AtomicWriter {
  write(s: string): void;
  /** Flush, then (for a file) fsync and rename into place. */
  commit(): void;
  /** Give up: a temporary file is removed, nothing is renamed. */
  abort(): void;
}

/** openAtomic's writer for stdout: buffered, nothing to rename. */
function stdoutWriter(stdout: (s: string) => void): AtomicWriter {
  let buf = '';
  const flushOut = () => {
    if (buf) stdout(buf);
    buf = '';
  };
  return { write: (c) => ((buf += c), buf.length > 1 << 20 && flushOut()), commit: flushOut, abort: () => (buf = '') };
}

export function openAtomic(path: string, stdout: (s: string) => void = (s) => process.stdout.write(s), duringRun = false): AtomicWriter {
  if (STDOUT_NAMES.has(path)) return stdoutWriter(stdout);
  let buf = '';
  const st = statOrUndefined(path);
  if (st?.isDirectory()) throw new OutputError(`${path} is a folder: name a file`);
  const direct = isDirectTarget(path, st);
  if (!direct && st !== undefined && (st.mode & 0o222) === 0) throw new OutputError(`${path} is read-only: kss does not replace it`);
  const target = direct ? path : st !== undefined ? realpathSync(path) : path; // a link: its target
  const tmp = tempPathFor(target);
  let fd: number | undefined;
  let held = false;
  const hold = () => {
    if (held || direct) return;
    held = true;
    holdSignals();
    inFlight.add(tmp);
  };
  const unhold = () => {
    if (!held) return;
    held = false;
    inFlight.delete(tmp);
    releaseSoon();
  };
  const open = () => {
    if (fd !== undefined) return fd;
    fd = direct ? openSync(path, 'w') : openTemp(tmp, st !== undefined ? st.mode & 0o7777 : 0o666);
    return fd;
  };
  const flush = () => {
    const f = open();
    if (buf) writeSync(f, buf);
    buf = '';
  };
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  const abort = () => {
    buf = '';
    const opened = fd !== undefined;
    close();
    if (!direct && opened) {
      try {
        unlinkSync(tmp);
      } catch {
        /* nothing to clean */
      }
    }
    unhold();
  };
  const commit = () => {
    hold();
    try {
      flush();
      if (!direct) fsyncSync(fd!);
      close();
      if (!direct && st !== undefined) chmodSync(tmp, st.mode & 0o7777); // keep the mode (the umask applied at open)
      if (!direct) renameSync(tmp, target);
      unhold();
    } catch (err) {
      abort();
      throw err;
    }
  };
  const write = (c: string) => {
    buf += c;
    if (buf.length > 1 << 20) flush();
  };
  if (!duringRun) {
    hold();
    try {
      open();
    } catch (err) {
      unhold();
      throw err;
    }
  }
  return { write, commit, abort };
}

export function writeFileAtomic(path: string, chunks: Iterable<string>, stdout: (s: string) => void = (s) => process.stdout.write(s)): void {
  if (STDOUT_NAMES.has(path)) {
    for (const c of chunks) stdout(c);
    return;
  }
  const w = openAtomic(path, stdout);
  try {
    for (const c of chunks) w.write(c);
  } catch (err) {
    w.abort();
    throw err;
  }
  w.commit();
}
