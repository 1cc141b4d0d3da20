// Output files are written whole or not at all, and never replace what is not a regular file:
// stdout (`-`), a pipe, a device (/dev/full: ENOSPC, exit 2), a symbolic link (followed: its
// target is written), a read-only file (refused, unchanged), a file's mode (kept); a signal
// during a write leaves no temporary file, and SIGKILL mid-write leaves the target as it was.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, kss, scratchWith } from './helpers.js';

const ATOMIC = join(REPO, 'dist/report/atomic.js');

function traceOk(text: string): void {
  const lines = text.trimEnd().split('\n');
  expect(JSON.parse(lines[0]).type).toBe('header');
  expect(JSON.parse(lines[lines.length - 1]).type).toBe('summary');
}

/** A child that writes `lines` lines to `target` with writeFileAtomic, signalling itself with
 *  `signal` halfway through (SIGKILL: it dies there). */
function writerScript(target: string, lines: number, signal: string): string {
  return `
    import { writeFileAtomic } from ${JSON.stringify(ATOMIC)};
    function* chunks() {
      for (let i = 0; i < ${lines}; i++) {
        if (i === ${Math.floor(lines / 2)}) process.kill(process.pid, ${JSON.stringify(signal)});
        yield 'line ' + i + ' ' + 'x'.repeat(200) + '\\n';
      }
    }
    writeFileAtomic(${JSON.stringify(target)}, chunks());
    process.stdout.write('returned\\n');
  `;
}

describe('targets that are not regular files', () => {
  it('--trace - writes the trace to stdout, the timeline to stderr', async () => {
    const dir = scratchWith('failing');
    const r = await kss(['run', 'failing/wrong-phase.yaml', '--trace', '-'], dir);
    expect(r.code).toBe(1);
    traceOk(r.out);
    expect(r.err).toContain('FAIL cli-wrong-phase');
    expect(existsSync(join(dir, '-'))).toBe(false);
  });

  it('a pipe is written directly and stays a pipe', async () => {
    const dir = scratchWith('failing');
    const fifo = join(dir, 'trace.pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo]);
    let got = '';
    reader.stdout.on('data', (d: Buffer) => (got += d.toString()));
    const done = new Promise((res) => reader.on('close', res));
    const r = await kss(['run', 'failing/wrong-phase.yaml', '--trace', fifo], dir);
    await done;
    expect(r.code).toBe(1);
    traceOk(got);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('/dev/full gives ENOSPC and exit 2, and stays a device', async () => {
    const r = await kss(['run', join(REPO, 'scenarios/getting-started.yaml'), '--trace', '/dev/full'], REPO);
    expect(r.code).toBe(2);
    expect(r.err).toContain('error WRITE_FAILED at --trace: could not write /dev/full: no space left on the device (ENOSPC)');
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });

  it('/dev/stdout, when stdout is a pipe, is written directly', () => {
    const dir = scratchWith('failing');
    const r = spawnSync(process.execPath, [join(REPO, 'dist/cli/bin.js'), 'run', 'failing/wrong-phase.yaml', '--trace', '/dev/stdout', '--format', 'json'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout.split('\n')[0]).toContain('"type":"header"');
  });
});

describe('links, read-only files, modes', () => {
  it('a symbolic link is followed: its target gets the trace, the link stays a link', async () => {
    const dir = scratchWith('failing');
    writeFileSync(join(dir, 'real.jsonl'), 'old\n');
    symlinkSync('real.jsonl', join(dir, 'link.jsonl'));
    const r = await kss(['run', 'failing/wrong-phase.yaml', '--trace', 'link.jsonl'], dir);
    expect(r.code).toBe(1);
    expect(lstatSync(join(dir, 'link.jsonl')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'link.jsonl'))).toBe('real.jsonl');
    traceOk(readFileSync(join(dir, 'real.jsonl'), 'utf8'));
    symlinkSync(join(dir, 'nowhere/x.jsonl'), join(dir, 'dangling.jsonl'));
    const d = await kss(['run', 'failing/wrong-phase.yaml', '--trace', 'dangling.jsonl'], dir);
    expect(d.code).toBe(2);
    expect(d.err).toContain('is a symbolic link to a file that does not exist');
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  });

  it('a read-only target is refused before the run and left as it was; a writable one keeps its mode', async () => {
    const dir = scratchWith('failing');
    const ro = join(dir, 'ro.jsonl');
    writeFileSync(ro, 'protected\n');
    chmodSync(ro, 0o444);
    const r = await kss(['run', 'failing/wrong-phase.yaml', '--trace', 'ro.jsonl'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/ro.jsonl is read-only \(mode 444\): kss does not replace it/);
    expect(r.out).toBe('');
    expect(readFileSync(ro, 'utf8')).toBe('protected\n');
    expect(statSync(ro).mode & 0o777).toBe(0o444);
    const priv = join(dir, 'private.jsonl');
    writeFileSync(priv, 'old\n');
    chmodSync(priv, 0o600);
    await kss(['run', 'failing/wrong-phase.yaml', '--trace', 'private.jsonl'], dir);
    expect(statSync(priv).mode & 0o777).toBe(0o600);
    traceOk(readFileSync(priv, 'utf8'));
  });
});

describe('interrupted writes', () => {
  const tmpFiles = (dir: string) => readdirSync(dir).filter((n) => /^\..*\.\d+\.tmp$/.test(n));

  it.each(['SIGTERM', 'SIGINT'])('%s during a write: no temporary file is left, the target is whole', (signal) => {
    const dir = scratchWith('failing');
    const target = join(dir, 'out.txt');
    writeFileSync(target, 'old\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', writerScript(target, 20_000, signal)], { encoding: 'utf8' });
    expect(r.signal).toBe(signal); // the process still ends as the signal says
    expect(tmpFiles(dir)).toEqual([]);
    const text = readFileSync(target, 'utf8');
    expect(text === 'old\n' || text.split('\n').length === 20_001).toBe(true);
  });

  it('SIGKILL mid-write leaves the target as it was (the temporary file is ignored by git)', () => {
    const dir = scratchWith('failing');
    const target = join(dir, 'out.txt');
    writeFileSync(target, 'old\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', writerScript(target, 20_000, 'SIGKILL')], { encoding: 'utf8' });
    expect(r.signal).toBe('SIGKILL');
    expect(readFileSync(target, 'utf8')).toBe('old\n');
    const left = tmpFiles(dir);
    expect(left).toHaveLength(1);
    const ignored = spawnSync('git', ['check-ignore', '--no-index', '-q', `scenarios/${left[0]}`], { cwd: REPO });
    expect(ignored.status).toBe(0);
  });
});
