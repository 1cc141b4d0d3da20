// Twelve kinds of bad scenario: each gives a clear positioned error (file:line:col, code, path,
// expected vs got, a code frame) and exit code 2 from `kss run`, never a stack trace.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

const REPO = join(import.meta.dirname, '..', '..');

async function run(argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), color: false, cwd: REPO });
  return { code, out, err };
}

const cases: Array<[file: string, position: string, code: string, path: string, detail: RegExp]> = [
  ['yaml-syntax', '4:1', 'YAML_SYNTAX', '', /flow|map|expected/i],
  ['wrong-type', '5:9', 'INVALID_TYPE', 'spec.seed', /expected .*integer.*got "seven"/i],
  ['unknown-key', '5:3', 'UNKNOWN_KEY', 'spec.untill', /did you mean "until"/],
  ['bad-duration', '5:10', 'BAD_DURATION', 'spec.until', /unit/i],
  ['unknown-pod', '11:28', 'UNKNOWN_POD', 'spec.timeline[0].setPodStatus.pod', /wbe/],
  ['duplicate-pod', '8:25', 'DUPLICATE_POD', 'spec.pods[1].metadata.name', /web/],
  ['bad-range', '6:14', 'BAD_RANGE', 'spec.apiserver.latency', /10ms\.\.1ms/],
  ['missing-field', '3:11', 'MISSING_FIELD', 'metadata.name', /name/],
  ['unknown-action', '10:7', 'UNKNOWN_ACTION', 'spec.timeline[0].delet', /did you mean "delete"/],
  ['empty', '1:1', 'EMPTY_FILE', '', /empty/i],
  ['unresolved-alias', '5:10', 'YAML_ALIAS', '', /anchor &duration must be set before the alias/],
  ['unknown-node', '10:36', 'UNKNOWN_NODE', 'spec.timeline[0].partition.node', /did you mean "node-b"/],
];

describe('kss run on bad scenarios', () => {
  it.each(cases)('%s: %s %s', async (name, position, code, path, detail) => {
    const file = `test/fixtures/bad/${name}.yaml`;
    const r = await run(['run', file]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    const first = r.err.split('\n')[0];
    expect(first).toBe(`${file}:${position}: error ${code}${path ? ' at ' + path : ''}`);
    expect(r.err).toMatch(detail);
    expect(r.err).not.toMatch(/\n\s+at .*\.(js|ts):\d+/); // no stack trace
    if (name !== 'empty') expect(r.err).toMatch(/\n\s+\d+ \| .*\n\s+\| +\^+/); // a code frame
  });

  it('a missing file is exit 2 with a clear message', async () => {
    const r = await run(['run', 'scenarios/no-such-file.yaml']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no-such-file\.yaml: error FILE_NOT_FOUND/);
  });
});

describe('bad command-line values', () => {
  const file = 'scenarios/getting-started.yaml';
  it.each([
    [['run', file, '--seed', 'abc'], /^--seed: expected a whole number, got "abc"/],
    [['run', file, '--seed', '1.5'], /^--seed: expected a whole number, got "1\.5"/],
    [['run', file, '--max-events', '0'], /^--max-events: expected a whole number ≥ 1, got "0"/],
    [['run', file, '--status-manager', 'foo'], /Argument: status-manager, Given: "foo", Choices: "classic", "transitional", "current"/],
    [['test', file, '--seeds', 'x'], /^--seeds: expected a whole number ≥ 1/],
    [['test', file, '--jobs', '0'], /^--jobs: expected a whole number ≥ 1, got "0"/],
  ])('%j is a usage error, and nothing runs', async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(message);
    expect(r.err).not.toMatch(/internal error|\n\s+at /);
  });
});
