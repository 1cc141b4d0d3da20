// The suite runner's two ways of running: worker threads (the built dist/testing/worker.js, found
// from TypeScript source too) and in-process; same results, same order.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveWorkerScript } from '../../src/testing/pool.js';
import { runSuite } from '../../src/testing/suite.js';
import type { CaseResult } from '../../src/testing/types.js';
import { REPO, kss, lastLine, scratchWith } from './helpers.js';

const comparable = (r: CaseResult) => ({ ...r, durationMs: 0 });

describe('runSuite', () => {
  it('finds the built worker from source (vitest) and beside a built module', () => {
    const fromSource = resolveWorkerScript(pathToFileURL(join(REPO, 'src/testing/pool.ts')).href);
    expect(fromSource?.href).toBe(pathToFileURL(join(REPO, 'dist/testing/worker.js')).href);
    const fromDist = resolveWorkerScript(pathToFileURL(join(REPO, 'dist/testing/pool.js')).href);
    expect(fromDist?.href).toBe(pathToFileURL(join(REPO, 'dist/testing/worker.js')).href);
    expect(resolveWorkerScript('file:///nowhere/src/testing/pool.ts')).toBeUndefined();
  });

  it('gives the same results in the same order on worker threads as in-process', async () => {
    expect(existsSync(join(REPO, 'dist/testing/worker.js')), 'build first: npm test runs tsc before vitest').toBe(true);
    const dir = scratchWith('suite', 'failing', 'invalid');
    const seen: number[] = [];
    const inProcess = await runSuite(['suite', 'failing', 'invalid'], { cwd: dir, jobs: 1, seeds: 3 });
    const workers = await runSuite(['suite', 'failing', 'invalid'], { cwd: dir, jobs: 3, seeds: 3, onResult: (r) => seen.push(r.id) });
    expect(inProcess.mode).toBe('in-process');
    expect(workers.mode).toBe('workers');
    expect(workers.jobs).toBe(3);
    expect(workers.results.map(comparable)).toEqual(inProcess.results.map(comparable));
    expect(seen).toEqual(workers.results.map((_, i) => i));
    expect(workers).toMatchObject({ passed: 12, failed: 4, skipped: 0 });
    expect(workers.wallMs).toBeGreaterThan(0);
  });

  it('falls back to in-process when no worker script exists', async () => {
    const dir = scratchWith('suite');
    const r = await runSuite(['suite'], { cwd: dir, jobs: 2, workerScript: false });
    expect(r.mode).toBe('in-process');
    expect(r.passed).toBe(4);
  });

  it('a worker that dies fails its case and the suite goes on', async () => {
    const dir = scratchWith('suite');
    const crashing = new URL('data:text/javascript,' + encodeURIComponent("import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => { throw new Error('boom'); });"));
    const r = await runSuite(['suite'], { cwd: dir, jobs: 2, workerScript: crashing });
    expect(r.results).toHaveLength(4);
    expect(r.failed).toBe(4);
    expect(r.results[0].crashed).toBe(true);
    expect(r.results[0].failures[0]).toContain('boom');
  });

  it('a case that overruns --timeout fails, its worker is replaced, the rest run', async () => {
    const dir = scratchWith('suite');
    // This worker never answers: every case it is given times out.
    const silent = new URL('data:text/javascript,' + encodeURIComponent("import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => {});"));
    const r = await runSuite(['suite'], { cwd: dir, jobs: 2, workerScript: silent, timeoutMs: 200 });
    expect(r.results.map((x) => x.status)).toEqual(['fail', 'fail', 'fail', 'fail']);
    expect(r.results[3].failures[0]).toContain('timed out: no result after 200 ms of wall time');
  });

  it('kss test --jobs 2 prints the same case lines as --jobs 1', async () => {
    const dir = scratchWith('suite', 'failing');
    const one = await kss(['test', 'suite', 'failing', '--jobs', '1'], dir);
    const two = await kss(['test', 'suite', 'failing', '--jobs', '2'], dir);
    const body = (s: string) => s.split('\n').filter((l) => !/case\(s\) from/.test(l));
    expect(body(two.out)).toEqual(body(one.out));
    expect(two.out).toContain('(2 worker threads)');
    expect(lastLine(two.out)).toBe('4 passed, 1 failed');
  });
});
