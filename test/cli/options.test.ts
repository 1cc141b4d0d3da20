// The command line (issue 16, "CLI and replay"): one rule for every option, array options that
// leave positionals alone, replay lines and trace headers that carry every setting of the run,
// output paths checked first, inputs named for what they are, --version and unknown commands.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wantColor } from '../../src/cli/io.js';
import { normalizeArgv } from '../../src/cli/options.js';
import { caseLines } from '../../src/cli/test-command.js';
import { runSuite } from '../../src/testing/suite.js';
import { REPO, kss, lastLine, scratchWith } from './helpers.js';

const GS = join(REPO, 'scenarios/getting-started.yaml');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };

/** The words of a printed `replay:` line, less the command (`kss` or `npx kss`). */
function replayArgs(out: string): string[] {
  const line = out.split('\n').find((l) => l.startsWith('replay: '));
  if (line === undefined) throw new Error(`no replay line in:\n${out}`);
  return line.replace(/^replay: (npx )?kss /, '').split(' ');
}

describe('repeated options', () => {
  const once: Array<[string, string[]]> = [
    ['run', ['--seed', '1', '--seed', '2']],
    ['run', ['--status-manager', 'classic', '--status-manager', 'current']],
    ['run', ['--until', '1s', '--until=2s']],
    ['run', ['--trace', 'a', '--trace', 'b']],
    ['run', ['--format', 'json', '--format', 'pretty']],
    ['run', ['--max-events', '5', '--max-events', '6']],
    ['run', ['--stats', '--stats']],
    ['run', ['-v', '--verbose']],
    ['test', ['-j', '1', '--jobs', '2']],
    ['test', ['--seeds', '2', '--seeds', '3']],
    ['test', ['--grep', 'a', '--grep', 'b']],
    ['test', ['--shard', '1/2', '--shard', '2/2']],
    ['test', ['--reporter', 'json', '--reporter', 'junit']],
    ['test', ['-o', 'a.xml', '--output', 'b.xml']],
    ['test', ['--timeout', '1', '--timeout', '2']],
    ['test', ['-q', '--quiet']],
    ['test', ['--update', '--update']],
    ['replay', ['--max-events', '1', '--max-events', '2']],
    ['schema', ['-o', 'a', '-o', 'b']],
  ];
  it.each(once)('kss %s %j is a usage error (exit 2), never a crash', async (cmd, opts) => {
    const target = cmd === 'run' ? [GS] : cmd === 'test' ? [GS] : cmd === 'replay' ? ['t.jsonl'] : [];
    const r = await kss([cmd, ...target, ...opts], REPO);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is given more than once: give each option once \(only --tag repeats\)/);
    expect(r.out).toBe('');
  });

  it('--status-manager classic --status-manager current no longer reaches the run (it crashed with exit 3)', async () => {
    const r = await kss(['run', GS, '--status-manager', 'classic', '--status-manager', 'current'], REPO);
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(/TypeError|internal error/);
  });
});

describe('--tag', () => {
  it('takes one word: kss test --tag T PATH runs PATH (it ran scenarios/ and took PATH as a tag)', async () => {
    const dir = scratchWith('suite');
    mkdirSync(join(dir, 'scenarios'));
    const r = await kss(['test', '--tag', 'nothing-has-this', 'suite'], dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain('no scenario matched the filters');
    const norm = normalizeArgv(['test', '--tag', 'mine', '../mine']);
    expect(norm).toEqual({ ok: true, command: 'test', argv: ['test', '--tag=mine', '../mine'] });
  });

  it('repeats (--tag a --tag b) and splits on commas (--tag a,b)', async () => {
    const dir = scratchWith('suite');
    const tags = new Set<string>();
    const all = await runSuite(['suite'], { cwd: dir, jobs: 1 });
    for (const c of all.results) for (const t of c.tags) tags.add(t);
    const [a, b] = [...tags];
    expect(a).toBeDefined();
    const one = await kss(['test', 'suite', '--tag', a, '-j', '1'], dir);
    const both = await kss(['test', 'suite', '--tag', a, '--tag', String(b), '-j', '1'], dir);
    const comma = await kss(['test', 'suite', `--tag=${a},${b}`, '-j', '1'], dir);
    expect(both.out.split('\n').slice(0, -3)).toEqual(comma.out.split('\n').slice(0, -3));
    expect(lastLine(one.out)).not.toBe('');
  });
});

describe('values', () => {
  it('--seed without a value is an error; --seed 9007199254740993 is refused, not rounded', async () => {
    const none = await kss(['run', GS, '--seed'], REPO);
    expect(none.code).toBe(2);
    expect(none.err).toContain('--seed needs a value');
    const big = await kss(['run', GS, '--seed', '9007199254740993'], REPO);
    expect(big.code).toBe(2);
    expect(big.err).toContain('is too large');
    const ok = await kss(['run', GS, '--seed', '9007199254740991', '--format', 'json'], REPO);
    expect(JSON.parse(ok.out).seed).toBe(9007199254740991);
  });

  it('--until -5s is refused as negative (it said "Unknown arguments: 5, s")', async () => {
    const r = await kss(['run', GS, '--until', '-5s'], REPO);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/BAD_DURATION at --until: the end time must not be negative, got "-5s"/);
  });

  it('echoed values are truncated', async () => {
    const r = await kss(['run', GS, '--seed', 'x'.repeat(100_000)], REPO);
    expect(r.code).toBe(2);
    expect(r.err.length).toBeLessThan(400);
    expect(r.err).toContain('(100000 characters)');
  });
});

describe('commands', () => {
  it('--version prints the version', async () => {
    const r = await kss(['--version'], REPO);
    expect(r).toEqual({ code: 0, out: `${pkg.version}\n`, err: '' });
  });

  it('an unknown command is a usage error, with --help too (kss explore --help printed the top-level help, exit 0, before explore existed)', async () => {
    for (const argv of [['explor', '--help'], ['frobnicate'], ['runn', GS]]) {
      const r = await kss(argv, REPO);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^unknown command "\w+": the commands are run, test, replay, validate, schema/);
      expect(r.out).toBe('');
    }
    const help = await kss(['run', '--help'], REPO);
    expect(help.code).toBe(0);
    expect(help.out).toContain('--max-events');
    const explore = await kss(['explore', '--help'], REPO);
    expect(explore.code).toBe(0);
    expect(explore.out).toContain('--strategy');
  });
});

describe('kss run inputs and outputs', () => {
  it('kss run DIR says it is a folder and suggests kss test DIR', async () => {
    const r = await kss(['run', 'scenarios/node'], REPO);
    expect(r.code).toBe(2);
    expect(r.err).toBe('scenarios/node: error FILE_IS_FOLDER: is a folder, not a scenario file (to run every scenario in it: kss test scenarios/node)\n');
  });

  it('--trace into a folder that does not exist creates it; a path that cannot be written fails before the run', async () => {
    const dir = scratchWith('failing');
    const ok = await kss(['run', 'failing/wrong-phase.yaml', '--trace', 'new/deeper/t.jsonl'], dir);
    expect(ok.code).toBe(1);
    expect(readFileSync(join(dir, 'new/deeper/t.jsonl'), 'utf8').split('\n')[0]).toContain('"type":"header"');
    writeFileSync(join(dir, 'plain'), 'x');
    const bad = await kss(['run', 'failing/wrong-phase.yaml', '--trace', 'plain/t.jsonl'], dir);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^error WRITE_FAILED at --trace: cannot write plain\/t.jsonl/);
    expect(bad.out).toBe(''); // nothing ran
    const folder = await kss(['run', 'failing/wrong-phase.yaml', '--trace', 'failing'], dir);
    expect(folder.code).toBe(2);
    expect(folder.err).toContain('is a folder');
  });
});

describe('replay lines and trace headers', () => {
  it('the replay line carries --until and --max-events, and reproduces the failure', async () => {
    const dir = scratchWith('failing');
    const r = await kss(['run', 'failing/wrong-phase.yaml', '--until', '1500ms', '--max-events', '40'], dir);
    expect(r.code).toBe(1);
    const args = replayArgs(r.out);
    expect(args).toEqual(['run', 'failing/wrong-phase.yaml', '--seed', '9', '--status-manager', 'current', '--until', '1.5s', '--max-events', '40']);
    const again = await kss(args, dir);
    expect(again.code).toBe(1);
    expect(again.out.split('\n').slice(-3)).toEqual(r.out.split('\n').slice(-3));
    const runaway = await kss(['run', GS, '--max-events', '50'], REPO);
    expect(runaway.code).toBe(1);
    expect(replayArgs(runaway.out)).toContain('--max-events');
    expect((await kss(replayArgs(runaway.out), REPO)).code).toBe(1);
  });

  it('kss replay of a trace made with --max-events or --until is IDENTICAL (it reported DIVERGED)', async () => {
    const dir = scratchWith('failing');
    for (const extra of [['--max-events', '30'], ['--until', '2s']]) {
      const made = await kss(['run', 'failing/wrong-phase.yaml', '--trace', 'run.jsonl', ...extra], dir);
      expect(made.code).toBe(1);
      const header = JSON.parse(readFileSync(join(dir, 'run.jsonl'), 'utf8').split('\n')[0]);
      if (extra[0] === '--max-events') expect(header.maxEvents).toBe(30);
      else expect(header.until).toBe(2000);
      const rep = await kss(['replay', 'run.jsonl'], dir);
      expect(rep.out).toMatch(/^IDENTICAL/);
      expect(rep.code).toBe(0);
    }
  });

  it('replay refuses a header seed of 1.5, an until of -1, a maxEvents of 0', async () => {
    const dir = scratchWith('failing');
    await kss(['run', 'failing/wrong-phase.yaml', '--trace', 'run.jsonl'], dir);
    const text = readFileSync(join(dir, 'run.jsonl'), 'utf8');
    const [head, ...rest] = text.split('\n');
    for (const [k, v, msg] of [['seed', 1.5, "the header's seed is 1.5"], ['until', -1, "the header's until is -1"], ['maxEvents', 0, "the header's maxEvents is 0"]] as const) {
      writeFileSync(join(dir, 'bad.jsonl'), [JSON.stringify({ ...JSON.parse(head), [k]: v }), ...rest].join('\n'));
      const r = await kss(['replay', 'bad.jsonl'], dir);
      expect(r.code).toBe(2);
      expect(r.err).toContain(msg);
    }
  });
});

describe('kss test output', () => {
  it('-q prints no line for skipped cases', async () => {
    const quiet = await kss(['test', GS, 'scenarios/conformance/current/can-be-deleted--delete-retried-by-full-batch.yaml', '-q', '--status-manager', 'classic'], REPO);
    expect(lastLine(quiet.out)).toMatch(/skipped/);
    expect(quiet.out).not.toMatch(/^- /m);
    const noisy = await kss(['test', GS, 'scenarios/conformance/current/can-be-deleted--delete-retried-by-full-batch.yaml', '--status-manager', 'classic'], REPO);
    expect(noisy.out).toMatch(/^- .*skipped/m);
  });

  it('a timed-out case is labelled with its seed and generation (it said "(seed 1, undefined)"), and --timeout stops a case with -j 1 too', async () => {
    const dir = scratchWith('suite');
    const silent = new URL('data:text/javascript,' + encodeURIComponent("import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => {});"));
    const r = await runSuite(['suite/a-running.yaml'], { cwd: dir, jobs: 1, workerScript: silent, timeoutMs: 100 });
    expect(r.mode).toBe('workers');
    expect(r.results[0].failures[0]).toContain('timed out');
    const line = caseLines(r.results[0], false)[0];
    expect(line).toMatch(/\(seed \d+, (classic|current)\)/);
    expect(line).not.toContain('undefined');
  });
});

const hasScript = spawnSync('script', ['--version']).status === 0;

describe('colour', () => {
  it.skipIf(!hasScript)('under a terminal: coloured, unless FORCE_COLOR=0 or NO_COLOR (the built bin, in a pty)', () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.FORCE_COLOR;
    delete env.NO_COLOR;
    const inPty = (extra: NodeJS.ProcessEnv) =>
      spawnSync('script', ['-qc', `${process.execPath} ${join(REPO, 'dist/cli/bin.js')} run ${GS}`, '/dev/null'], { env: { ...env, ...extra }, encoding: 'utf8' }).stdout;
    expect(inPty({})).toContain('\x1b[');
    expect(inPty({ FORCE_COLOR: '0' })).not.toContain('\x1b[');
    expect(inPty({ NO_COLOR: '1' })).not.toContain('\x1b[');
  });

  it('FORCE_COLOR=0 turns colour off under a terminal; FORCE_COLOR=1 on without one; NO_COLOR off', () => {
    expect(wantColor({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(wantColor({ FORCE_COLOR: 'false' }, true)).toBe(false);
    expect(wantColor({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(wantColor({ NO_COLOR: '' }, true)).toBe(false);
    expect(wantColor({}, true)).toBe(true);
    expect(wantColor({}, false)).toBe(false);
  });
});

describe('the command in replay lines', () => {
  it('is kss when the kss on PATH is this one, else npx kss', async () => {
    const { kssCommand, replayCommandFor } = (await import(join(REPO, 'dist/testing/replay-line.js'))) as typeof import('../../src/testing/replay-line.js');
    const dir = scratchWith('suite');
    const { symlinkSync, mkdirSync: mk } = await import('node:fs');
    mk(join(dir, 'bin'));
    mk(join(dir, 'other'));
    symlinkSync(join(REPO, 'dist/cli/bin.js'), join(dir, 'bin/kss'));
    writeFileSync(join(dir, 'other/kss'), '#!/bin/sh\n', { mode: 0o755 });
    expect(kssCommand({ PATH: `${join(dir, 'bin')}:/usr/bin` })).toBe('kss');
    expect(kssCommand({ PATH: `${join(dir, 'other')}:${join(dir, 'bin')}` })).toBe('npx kss'); // another kss comes first
    expect(kssCommand({ PATH: '/usr/bin' })).toBe('npx kss');
    expect(replayCommandFor("my dir/it's.yaml", { seed: 1, variant: 'classic' }, 'kss')).toBe("kss run 'my dir/it'\\''s.yaml' --seed 1 --status-manager classic");
  });
});
