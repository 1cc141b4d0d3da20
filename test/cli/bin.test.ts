// The built binary, end to end: `node dist/cli/bin.js test …` in a child process (npm test builds
// dist/ first). Worker threads, a JUnit file, the closing line and the exit code.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, descendants, lastLine, parseXml, scratchWith } from './helpers.js';

const BIN = join(REPO, 'dist/cli/bin.js');

describe('dist/cli/bin.js', () => {
  it('runs kss test on worker threads and exits with the suite verdict', () => {
    expect(existsSync(BIN), 'build first: npm test runs tsc before vitest').toBe(true);
    const dir = scratchWith('suite', 'failing');
    const env = { ...process.env, NO_COLOR: '1' };
    const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });

    const up = run(['test', 'suite', '--update', '--jobs', '2']);
    expect(up.stderr).toBe('');
    expect(up.status).toBe(0);
    expect(up.stdout).toContain('(2 worker threads)');
    expect(lastLine(up.stdout)).toBe('4 passed, 0 failed');

    const r = run(['test', 'suite', 'failing', '--ci', '--jobs', '2', '--reporter', 'junit', '--output', 'out/junit.xml']);
    expect(r.status).toBe(1);
    // failing/ has no golden and --ci requires one: that case fails twice over, once in the count.
    expect(lastLine(r.stdout)).toBe('4 passed, 1 failed');
    expect(r.stdout).toContain('replay: npx kss run failing/wrong-phase.yaml --seed 9 --status-manager current');
    const root = parseXml(readFileSync(join(dir, 'out/junit.xml'), 'utf8'));
    expect(descendants(root, 'testcase').map((c) => c.attrs.name)).toEqual(['cli-wrong-phase', 'cli-running', 'cli-two-updates', 'cli-classic', 'cli-latency']);

    const usage = run(['test', 'suite', '--shard', '3/2']);
    expect(usage.status).toBe(2);
  });
});
