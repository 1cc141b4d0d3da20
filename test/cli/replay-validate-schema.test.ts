// `kss replay`, `kss validate`, `kss schema`, in-process.
import { readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kss, lastLine, scratchWith } from './helpers.js';

describe('kss replay', () => {
  async function traced() {
    const dir = scratchWith('suite');
    const r = await kss(['run', 'suite/nested/d-latency.yaml', '--trace', 'run.jsonl'], dir);
    expect(r.code).toBe(0);
    return { dir, trace: join(dir, 'run.jsonl') };
  }

  it('passes on a fresh trace (byte-identical)', async () => {
    const { dir, trace } = await traced();
    const lines = readFileSync(trace, 'utf8').split('\n').length - 1;
    const r = await kss(['replay', 'run.jsonl'], dir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(`IDENTICAL run.jsonl: ${lines} lines, byte for byte (cli-latency, seed 11, current)\n`);
  });

  it('reports the first diverging line of a hand-edited trace', async () => {
    const { dir, trace } = await traced();
    const lines = readFileSync(trace, 'utf8').split('\n');
    const k = lines.findIndex((l) => l.includes('"type":"api.patch"'));
    expect(k).toBeGreaterThan(1);
    const original = lines[k];
    lines[k] = original.replace(/"t":(\d+)/, (_, t: string) => `"t":${Number(t) + 1}`);
    writeFileSync(trace, lines.join('\n'));
    const r = await kss(['replay', 'run.jsonl'], dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`DIVERGED run.jsonl: first difference at line ${k + 1}`);
    expect(r.out).toContain(`- expected (run.jsonl), line ${k + 1}: ${lines[k]}`);
    expect(r.out).toContain(`+ actual (replay), line ${k + 1}: ${original}`);
    expect(r.out).toContain('first differing field: t');
    expect(r.out).toContain(`  line ${k}: ${lines[k - 1]}`);
  });

  it('notices a trace cut short, one that goes on, and a lost final newline', async () => {
    const { dir, trace } = await traced();
    const text = readFileSync(trace, 'utf8');
    const lines = text.split('\n');
    writeFileSync(trace, lines.slice(0, 4).join('\n') + '\n');
    const short = await kss(['replay', 'run.jsonl'], dir);
    expect(short.code).toBe(1);
    expect(short.out).toContain('the file ends after line 4; the replay goes on');
    writeFileSync(trace, text);
    appendFileSync(trace, '{"extra":true}\n');
    const long = await kss(['replay', 'run.jsonl'], dir);
    expect(long.code).toBe(1);
    expect(long.out).toContain(`the replay ends after line ${lines.length - 1}; the file goes on`);
    writeFileSync(trace, text.slice(0, -1));
    const noNewline = await kss(['replay', 'run.jsonl'], dir);
    expect(noNewline.code).toBe(1);
    expect(noNewline.out).toContain('no newline at the end');
  });

  it('refuses (exit 2) when the scenario changed or is missing, or the file is not a trace', async () => {
    const { dir } = await traced();
    const scenario = join(dir, 'suite/nested/d-latency.yaml');
    const text = readFileSync(scenario, 'utf8');
    writeFileSync(scenario, text + '# a comment changes the bytes\n');
    const changed = await kss(['replay', 'run.jsonl'], dir);
    expect(changed.code).toBe(2);
    expect(changed.err).toContain('SCENARIO_CHANGED');
    expect(changed.err).toContain('sha256');
    rmSync(scenario);
    const missing = await kss(['replay', 'run.jsonl'], dir);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('SCENARIO_MISSING');
    writeFileSync(join(dir, 'junk.jsonl'), '{"type":"event"}\n');
    expect((await kss(['replay', 'junk.jsonl'], dir)).code).toBe(2);
    expect((await kss(['replay', 'absent.jsonl'], dir)).code).toBe(2);
    expect((await kss(['replay'], dir)).code).toBe(2);
  });

  it('finds the scenario relative to the trace when run from elsewhere', async () => {
    const { dir } = await traced();
    const r = await kss(['replay', join(dir, 'run.jsonl')], join(dir, 'suite'));
    expect(r.code).toBe(0);
  });
});

describe('kss validate', () => {
  it('prints ok for valid files and exits 0', async () => {
    const dir = scratchWith('suite');
    const r = await kss(['validate', 'suite/a-running.yaml', 'suite/nested'], dir);
    expect(r.code).toBe(0);
    expect(r.out).toBe('ok suite/a-running.yaml\nok suite/nested/c-classic.yaml\nok suite/nested/d-latency.yaml\n');
  });

  it('renders the issues of an invalid file and exits 2', async () => {
    const dir = scratchWith('suite', 'invalid');
    const r = await kss(['validate', 'suite/a-running.yaml', 'invalid/bad-policy.yaml'], dir);
    expect(r.code).toBe(2);
    expect(r.out).toBe('ok suite/a-running.yaml\n');
    expect(r.err).toContain('invalid/bad-policy.yaml:11:24: error INVALID_VALUE at spec.pods[0].spec.restartPolicy');
    expect(r.err).toContain('11 |         restartPolicy: always');
    expect(lastLine(r.err)).toBe('1 invalid');
  });

  it('exits 2 for a missing file and for no arguments', async () => {
    const dir = scratchWith();
    const r = await kss(['validate', 'nope.yaml'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('nope.yaml: error NOT_FOUND');
    expect((await kss(['validate'], dir)).code).toBe(2);
  });
});

describe('kss schema', () => {
  it('prints the JSON Schema, pretty-printed', async () => {
    const dir = scratchWith();
    const r = await kss(['schema'], dir);
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.out) as { type?: string; properties?: Record<string, unknown> };
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(['apiVersion', 'kind', 'metadata', 'spec']));
    expect(r.out).toContain('\n  "');
    expect(r.out.endsWith('}\n')).toBe(true);
  });

  it('--output writes the same text to a file', async () => {
    const dir = scratchWith();
    const r = await kss(['schema', '--output', 'schema.json'], dir);
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(readFileSync(join(dir, 'schema.json'), 'utf8')).toBe((await kss(['schema'], dir)).out);
  });
});
