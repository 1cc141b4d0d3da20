// kss test never goes down whole: a file the loader fails on is a failing case of its own and the
// JUnit report is still written; Node flags a worker refuses (--max-old-space-size) do not stop
// the workers (ERR_WORKER_INVALID_EXEC_ARGV).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { withoutRefused } from '../../src/testing/pool.js';
import { REPO, descendants, kss, lastLine, parseXml, scratchWith } from './helpers.js';

vi.mock('../../src/scenario/index.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/scenario/index.js')>();
  return {
    ...real,
    loadScenarioFile: (path: string) => {
      if (path.endsWith('explodes.yaml')) throw new RangeError('Maximum call stack size exceeded');
      return real.loadScenarioFile(path);
    },
  };
});

describe('a file the loader fails on', () => {
  it('is a failing case with a clear message; the other cases run and the JUnit report is written', async () => {
    const dir = scratchWith('suite');
    writeFileSync(join(dir, 'suite/explodes.yaml'), 'apiVersion: kss/v1alpha1\n');
    const r = await kss(['test', 'suite', '-j', '1', '--reporter', 'junit', '-o', 'junit.xml'], dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain('suite/explodes.yaml: error LOAD_CRASHED: the loader failed on this file: Maximum call stack size exceeded');
    expect(lastLine(r.out)).toBe('4 passed, 1 failed');
    const cases = descendants(parseXml(readFileSync(join(dir, 'junit.xml'), 'utf8')), 'testcase');
    expect(cases).toHaveLength(5);
    const v = await kss(['validate', 'suite'], dir);
    expect(v.code).toBe(2);
    expect(v.err).toContain('LOAD_CRASHED');
  });
});

describe('worker flags', () => {
  it('node --max-old-space-size=… kss test -j 2 runs on workers (it crashed with ERR_WORKER_INVALID_EXEC_ARGV)', () => {
    const dir = scratchWith('suite');
    const r = spawnSync(process.execPath, ['--max-old-space-size=512', '--stack-size=900', join(REPO, 'dist/cli/bin.js'), 'test', 'suite', '-j', '2'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.stderr).not.toContain('ERR_WORKER_INVALID_EXEC_ARGV');
    expect(r.stdout).toContain('(2 worker threads)');
    expect(lastLine(r.stdout)).toBe('4 passed, 0 failed');
    expect(r.status).toBe(0);
  });

  it('the refused flags are left out, and the heap limit becomes the worker\'s resourceLimits', () => {
    const s = withoutRefused({ execArgv: ['--max-old-space-size=512', '--enable-source-maps', '--stack-size=900'] }, 'Initiated Worker with invalid execArgv flags: --max-old-space-size=512, --stack-size=900');
    expect(s).toEqual({ execArgv: ['--enable-source-maps'], resourceLimits: { maxOldGenerationSizeMb: 512 } });
  });
});
