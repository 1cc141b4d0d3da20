// Hostile trees: symbolic links out of the tree (their targets are never read or printed), link
// loops, special files (FIFOs, devices), --update through links, x.yaml beside x.yml. Every one
// gives a clear per-file result; nothing hangs, nothing leaks.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverScenarios } from '../../src/testing/discover.js';
import { FIXTURES, kss, lastLine, scratchWith } from './helpers.js';

const SECRET = 'SECRET_TOKEN_d41d8cd98f00b204';

/** A folder outside the tree holding a "secret" that would print in a code frame if read. */
function outside(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kss-outside-'));
  writeFileSync(join(dir, 'secret.yaml'), `token: ${SECRET}\n: not yaml [\n`);
  cpSync(join(FIXTURES, 'suite/a-running.yaml'), join(dir, 'valid.yaml'));
  return dir;
}

describe('symbolic links that leave the tree', () => {
  it('a linked file is refused and its content never printed, in the terminal or the JUnit report', async () => {
    const dir = scratchWith('suite');
    const out = outside();
    symlinkSync(join(out, 'secret.yaml'), join(dir, 'suite/leak.yaml'));
    symlinkSync('/proc/self/environ', join(dir, 'suite/environ.yaml'));
    process.env.KSS_TEST_SECRET = SECRET;
    const r = await kss(['test', 'suite', '-j', '1', '--reporter', 'junit', '-o', 'junit.xml'], dir);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    delete process.env.KSS_TEST_SECRET;
    expect(r.code).toBe(1);
    for (const text of [r.out, r.err, junit]) expect(text).not.toContain(SECRET);
    expect(r.out).toMatch(/suite\/leak.yaml: error OUTSIDE_TREE: a symbolic link that leaves its tree/);
    expect(r.out).toMatch(/suite\/environ.yaml: error OUTSIDE_TREE/);
    expect(junit).toContain('OUTSIDE_TREE');
    const run = await kss(['run', 'suite/leak.yaml'], dir);
    expect(run.code).toBe(2);
    expect(run.err).not.toContain(SECRET);
    const val = await kss(['validate', 'suite'], dir);
    expect(val.code).toBe(2);
    expect(val.err).toContain('OUTSIDE_TREE');
    expect(val.err).not.toContain(SECRET);
  });

  it('a linked folder that leaves the tree is refused; a link inside the tree is followed', async () => {
    const dir = scratchWith('suite');
    const out = outside();
    symlinkSync(out, join(dir, 'suite/away'));
    symlinkSync(join(dir, 'suite/nested/c-classic.yaml'), join(dir, 'suite/inside.yaml'));
    const r = await kss(['test', 'suite', '-j', '1'], dir);
    expect(r.out).toMatch(/suite\/away: error OUTSIDE_TREE: a symbolic link to a folder outside the tree/);
    expect(r.out).not.toContain(SECRET);
    expect(r.out).toMatch(/✓ suite\/inside.yaml/);
  });

  it('--update through a linked folder, or onto a linked golden, writes nothing outside the tree', async () => {
    const dir = scratchWith('suite');
    const out = outside();
    symlinkSync(out, join(dir, 'linked'));
    const r = await kss(['test', 'linked/valid.yaml', '--update', '-j', '1'], dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain('--update writes only beside real files in the tree');
    expect(existsSync(join(out, 'valid.golden.jsonl'))).toBe(false);
    const target = join(out, 'target.jsonl');
    writeFileSync(target, 'keep\n');
    symlinkSync(target, join(dir, 'suite/b-two-updates.golden.jsonl'));
    const g = await kss(['test', 'suite/b-two-updates.yaml', '--update', '-j', '1'], dir);
    expect(g.code).toBe(1);
    expect(readFileSync(target, 'utf8')).toBe('keep\n');
  });
});

describe('symbolic link loops', () => {
  it('loop -> . and two crossing loops list each file once and end', async () => {
    const dir = scratchWith('suite');
    symlinkSync('.', join(dir, 'suite/loop'));
    symlinkSync('..', join(dir, 'suite/nested/up'));
    symlinkSync(join(dir, 'suite'), join(dir, 'suite/nested/again'));
    const found = discoverScenarios(['suite'], dir).files.map((f) => f.display);
    expect(found).toEqual(['suite/a-running.yaml', 'suite/b-two-updates.yaml', 'suite/nested/c-classic.yaml', 'suite/nested/d-latency.yaml']);
    const r = await kss(['test', 'suite', '-j', '1'], dir);
    expect(lastLine(r.out)).toBe('4 passed, 0 failed');
    const v = await kss(['validate', 'suite'], dir);
    expect(v.code).toBe(0);
    symlinkSync('self.yaml', join(dir, 'suite/self.yaml'));
    const self = await kss(['run', 'suite/self.yaml'], dir);
    expect(self.code).toBe(2);
    expect(self.err).toContain('a symbolic link that loops');
  });
});

describe('special files', () => {
  it('a FIFO and a device are refused at once, each saying what it is; missing and unreadable files say so', async () => {
    const dir = scratchWith('suite');
    execFileSync('mkfifo', [join(dir, 'suite/pipe.yaml')]);
    const t = await kss(['test', 'suite', '-j', '1'], dir);
    expect(t.out).toContain('suite/pipe.yaml: error NOT_REGULAR: is a FIFO (named pipe), not a regular file');
    expect(lastLine(t.out)).toBe('4 passed, 1 failed');
    const cases: Array<[string, RegExp]> = [
      ['/dev/zero', /error NOT_REGULAR: is a character device/],
      ['suite/pipe.yaml', /error NOT_REGULAR: is a FIFO/],
      ['suite/none.yaml', /error FILE_NOT_FOUND: no such file/],
      ['suite', /error FILE_IS_FOLDER: is a folder/],
    ];
    for (const [p, msg] of cases) {
      const r = await kss(['run', p], dir);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(msg);
    }
    for (const trace of ['/dev/zero', 'suite/pipe.yaml', 'suite']) {
      const rep = await kss(['replay', trace], dir);
      expect(rep.code).toBe(2);
      expect(rep.err).toMatch(/error NOT_REGULAR: is (a character device|a FIFO|a folder)/);
    }
    const dev = await kss(['test', '/dev/zero', '-j', '1'], dir);
    expect(dev.code).toBe(1);
    expect(dev.out).toMatch(/character device/);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file says permission denied', async () => {
    const dir = scratchWith('suite');
    const f = join(dir, 'suite/a-running.yaml');
    execFileSync('chmod', ['000', f]);
    const r = await kss(['run', 'suite/a-running.yaml'], dir);
    expect(r.err).toMatch(/error PERMISSION: permission denied/);
  });
});

describe('golden collisions', () => {
  it('x.yaml beside x.yml is refused: they would share x.golden.jsonl', async () => {
    const dir = scratchWith('suite');
    cpSync(join(dir, 'suite/a-running.yaml'), join(dir, 'suite/a-running.yml'));
    mkdirSync(join(dir, 'other'));
    const r = await kss(['test', 'suite', '-j', '1', '--update'], dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain('error GOLDEN_COLLISION: suite/a-running.yaml and suite/a-running.yml would share the golden a-running.golden.jsonl');
    expect(existsSync(join(dir, 'suite/a-running.golden.jsonl'))).toBe(false);
  });
});

describe('echoed input', () => {
  it('a huge bad value is cut, and control characters never reach the terminal raw', async () => {
    const dir = scratchWith('suite');
    const text = readFileSync(join(dir, 'suite/a-running.yaml'), 'utf8');
    writeFileSync(join(dir, 'huge.yaml'), text.replace(/^  until: .*$/m, `  until: "${'9'.repeat(2_000_000)}"`));
    writeFileSync(join(dir, 'escape.yaml'), text.replace(/^  until: .*$/m, '  until: "\x1b[2J\x07oops"'));
    for (const f of ['huge.yaml', 'escape.yaml']) {
      const run = await kss(['run', f], dir);
      const test = await kss(['test', f, '-j', '1'], dir);
      const val = await kss(['validate', f], dir);
      for (const r of [run, test, val]) {
        const all = r.out + r.err;
        expect(all.length).toBeLessThan(20_000);
        expect(all).not.toMatch(/[\x1b\x07]/);
      }
      expect(run.code).toBe(2);
      if (f === 'huge.yaml') expect(run.err).toContain('…');
      else expect(run.err).toMatch(/\\x1b|\\u001b/);
    }
  });
});
