// `kss run --trace FILE` streams the JSON Lines trace while the run makes it (report/trace-stream.ts),
// and `kss run --format json` keeps no trace in memory: the file's bytes are those of the kept
// trace written after the run, the file still appears whole or not at all, and the run keeps the
// whole trace only when something reads it afterwards.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/index.js';
import { runScenario } from '../../src/world/run.js';
import { traceLines, traceOutput, type RunArgs } from '../../src/cli/run-command.js';
import { TraceStream } from '../../src/report/trace-stream.js';
import { REPO, kss, scratchWith } from './helpers.js';

const SCENARIOS = ['scenarios/getting-started.yaml', 'scenarios/invariants/terminal-phase-sticky-broken.yaml', 'scenarios/invariants/no-illegal-container-transition-broken.yaml'];

/** The trace file as it was written before streaming: the kept trace, after the run. */
function keptTraceText(file: string, display: string): string {
  const loaded = loadScenarioFile(join(REPO, file));
  if (!loaded.ok) throw new Error(`${file} does not load`);
  const r = runScenario({ ...loaded.scenario, file: display }, { keepTrace: true });
  return [...traceLines(r)].join('');
}

describe('the streamed --trace', () => {
  for (const file of SCENARIOS) {
    it(`has the kept trace's bytes: ${file}`, async () => {
      const dir = scratchWith();
      const json = await kss(['run', join(REPO, file), '--format', 'json', '--trace', join(dir, 't.jsonl')], dir);
      const pretty = await kss(['run', join(REPO, file), '--trace', join(dir, 'p.jsonl')], dir);
      expect(json.code).toBe(pretty.code);
      const want = keptTraceText(file, join(REPO, file));
      expect(want.split('\n').length).toBeGreaterThan(10);
      expect(readFileSync(join(dir, 't.jsonl'), 'utf8')).toBe(want);
      expect(readFileSync(join(dir, 'p.jsonl'), 'utf8')).toBe(want);
      const stdout = await kss(['run', join(REPO, file), '--format', 'json', '--trace', '-'], dir);
      expect(stdout.out).toBe(want);
      expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    });
  }

  it('replaces the target only when the run finishes; an aborted stream leaves it as it was and no temporary file', () => {
    const dir = scratchWith();
    const target = join(dir, 'old.jsonl');
    writeFileSync(target, 'before\n');
    const s = new TraceStream(target);
    s.start({ type: 'header' });
    for (let i = 0; i < 30_000; i++) s.record({ t: i, seq: i, actor: 'x', type: 'log', msg: 'y'.repeat(60) }); // past the 1 MiB buffer
    expect(readFileSync(target, 'utf8')).toBe('before\n');
    expect(readdirSync(dir).some((n) => n.endsWith('.tmp'))).toBe(true);
    s.abort();
    expect(readFileSync(target, 'utf8')).toBe('before\n');
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const t = new TraceStream(target);
    t.start({ type: 'header' });
    t.record({ t: 0, seq: 0, actor: 'x', type: 'log' });
    t.finish({ type: 'summary' });
    expect(readFileSync(target, 'utf8')).toBe('{"type":"header"}\n{"t":0,"seq":0,"actor":"x","type":"log"}\n{"type":"summary"}\n');
    expect(existsSync(join(dir, `.old.jsonl.${process.pid}.tmp`))).toBe(false);
  });

  it('keeps a failed write for the end: the run goes on, finish throws it', () => {
    const s = new TraceStream('/dev/full');
    s.start({ type: 'header' });
    for (let i = 0; i < 30_000; i++) s.record({ t: i, seq: i, actor: 'x', type: 'log', msg: 'y'.repeat(60) });
    expect(() => s.finish({ type: 'summary' })).toThrow(/ENOSPC/);
  });
});

describe('what kss run keeps of the trace', () => {
  const io = { stdout: () => {}, stderr: () => {}, color: false, cwd: REPO };
  const args = (over: Partial<RunArgs>): RunArgs => ({ scenario: 'x.yaml', format: 'pretty', stats: false, verbose: false, ...over });
  const dir = scratchWith();
  const f = join(dir, 'k.jsonl');
  const decide = (over: Partial<RunArgs>, trace: string | undefined, driven = false) => {
    const o = traceOutput(args(over), trace, driven, io);
    if (typeof o === 'number') throw new Error('exit');
    return { keep: o.keepTrace, streams: o.traceSink !== undefined };
  };
  it('--format json keeps nothing, with or without a streamed --trace', () => {
    expect(decide({ format: 'json' }, undefined)).toEqual({ keep: false, streams: false });
    expect(decide({ format: 'json' }, f)).toEqual({ keep: false, streams: true });
    expect(decide({ format: 'pretty', quiet: true }, f)).toEqual({ keep: false, streams: true });
  });
  it('what reads the trace after the run keeps it', () => {
    expect(decide({ format: 'pretty' }, undefined)).toEqual({ keep: true, streams: false });
    expect(decide({ format: 'mermaid' }, undefined)).toEqual({ keep: true, streams: false });
    expect(decide({ format: 'json', html: 'x.html' }, undefined)).toEqual({ keep: true, streams: false });
    expect(decide({ format: 'json', traceFormat: 'chrome' }, f)).toEqual({ keep: true, streams: false });
    expect(decide({ format: 'json' }, f, true)).toEqual({ keep: true, streams: false });
  });
});
