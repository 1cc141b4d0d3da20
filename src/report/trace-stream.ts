// `kss run --trace FILE` (JSON Lines): the trace written while the run makes it, so that the run
// keeps no record in memory for the file's sake. The bytes are those of writing the kept trace
// after the run (header, one line per record, summary); the file still appears whole or not at
// all (report/atomic.ts). A write that fails during the run does not stop the run: the error is
// kept, the rest is dropped, and finish() throws it, as a failed write after the run would.
import type { TraceRecord } from '../model/trace.js';
import { openAtomic, type AtomicWriter } from './atomic.js';

export class TraceStream {
  private readonly out: AtomicWriter;
  private failed: unknown = undefined;
  private started = false;

  /** Opens the output now (so a path that cannot be written fails before the run). */
  constructor(path: string, stdout?: (s: string) => void) {
    this.out = openAtomic(path, stdout, true);
  }

  private put(s: string): void {
    if (this.failed !== undefined) return;
    try {
      this.out.write(s);
    } catch (err) {
      this.failed = err;
      this.out.abort();
    }
  }

  /** The header line: before the first record. */
  start(header: Record<string, unknown>): void {
    this.started = true;
    this.put(JSON.stringify(header) + '\n');
  }

  /** A record, as the run emits it (a tracer listener). */
  readonly record = (r: TraceRecord): void => {
    this.put(JSON.stringify(r) + '\n');
  };

  /** The summary line, then the file is put in place; throws what failed on the way. */
  finish(summary: Record<string, unknown>): void {
    if (!this.started) throw new Error('trace stream: finish before start');
    this.put(JSON.stringify(summary) + '\n');
    if (this.failed !== undefined) throw this.failed;
    this.out.commit();
  }

  /** The run did not finish (an exception): drop the temporary file. */
  abort(): void {
    if (this.failed === undefined) this.out.abort();
    this.failed ??= new Error('aborted');
  }
}
