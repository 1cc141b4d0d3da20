// A catalogue of bad input: each kind, written to a file, goes through the CLI (`kss validate`, or
// `kss run`) and must give exit 2, a positioned error (file:line:col: error CODE at path), the
// expected code and words, a bounded output, and never a stack trace.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadScenarioFile } from '../../src/scenario/index.js';

const dir = mkdtempSync(join(tmpdir(), 'kss-catalogue-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEAD = 'apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: bad }\nspec:\n';
const POD = '  pods:\n    - metadata: { name: web }\n      spec:\n        containers: [{ name: main, image: busybox }]\n';
/** A scenario with one pod, `extra` appended under the pod's spec, `more` under spec. */
const withPod = (podSpec: string, more = '') => HEAD + POD + podSpec + more;
const step = (s: string) => withPod('', `  timeline:\n    - ${s}\n`);
const expectOne = (s: string) => withPod('', `  expect:\n    - ${s}\n`);
const status = (s: string) => withPod(`      status: ${s}\n`);

type Case = { name: string; text?: string | Buffer; file?: () => string; code: string; at?: string; words?: RegExp; cmd?: 'run' | 'validate'; filePos?: true };
const C = (name: string, text: string | Buffer, code: string, words?: RegExp, at?: string): Case => ({ name, text, code, words, at });

const cases: Case[] = [
  // The Pod-field typos of the fidelity issue, and their kin.
  C('restartPolcy', withPod('        restartPolcy: Never\n'), 'UNKNOWN_KEY', /did you mean "restartPolicy"/, 'spec.pods[0].spec.restartPolcy'),
  C('contianers', HEAD + '  pods:\n    - metadata: { name: web }\n      spec:\n        contianers: [{ name: main }]\n', 'UNKNOWN_KEY', /did you mean "containers"/),
  C('terminationGracePeriodSecond', withPod('        terminationGracePeriodSecond: 5\n'), 'UNKNOWN_KEY', /did you mean "terminationGracePeriodSeconds"/),
  C('readinesProbe', HEAD + '  pods:\n    - metadata: { name: web }\n      spec:\n        containers: [{ name: main, readinesProbe: {} }]\n', 'UNKNOWN_KEY', /did you mean "readinessProbe"/),
  C('phase Runing', status('{ phase: Runing }'), 'INVALID_VALUE', /did you mean "Running"/, 'spec.pods[0].status.phase'),
  C('restartCount "one"', status('{ containerStatuses: [{ name: main, restartCount: "one" }] }'), 'INVALID_TYPE', /expected an integer, got "one"/),
  C('lastTerminationState', status('{ containerStatuses: [{ name: main, lastTerminationState: {} }] }'), 'UNKNOWN_KEY', /did you mean "lastState"/),
  C('imagePullPolicy always', HEAD + '  pods:\n    - metadata: { name: web }\n      spec:\n        containers: [{ name: main, imagePullPolicy: always }]\n', 'INVALID_VALUE', /did you mean "Always"/),
  C('ready "yes"', status('{ containerStatuses: [{ name: main, ready: "yes" }] }'), 'INVALID_TYPE', /true or false/),
  C('lables', HEAD + '  pods:\n    - metadata: { name: web, lables: { a: b } }\n      spec: { containers: [{ name: main }] }\n', 'UNKNOWN_KEY', /did you mean "labels"/),
  C('resources.limit', HEAD + '  pods:\n    - metadata: { name: web }\n      spec: { containers: [{ name: main, resources: { limit: { cpu: 1 } } }] }\n', 'UNKNOWN_KEY', /did you mean "limits"/),
  C('hostNetwork "true"', withPod('        hostNetwork: "true"\n'), 'INVALID_TYPE', /true or false/),
  C('condition stauts in setPodStatus', step('{ at: 1s, setPodStatus: { pod: web, status: { conditions: [{ type: Ready, stauts: "True" }] } } }'), 'UNKNOWN_KEY', /did you mean "status"/),
  C('qosClass in an assertion', expectOne('apiserver: { pod: web, status: { qosClass: Guaranted } }'), 'INVALID_VALUE', /did you mean "Guaranteed"/),
  C('status key toString', step('{ at: 1s, setPodStatus: { pod: web, status: { toString: 1 } } }'), 'UNKNOWN_KEY', /"toString"/),
  C('status key constructor', step('{ at: 1s, externalPatch: { pod: web, status: { constructor: 1 } } }'), 'UNKNOWN_KEY', /"constructor"/),
  // Wrong shapes inside statuses.
  C('containerStatuses scalar', step('{ at: 1s, externalPatch: { pod: web, status: { containerStatuses: 7 } } }'), 'INVALID_TYPE', /expected a list, got 7/),
  C('containerStatuses [null]', step('{ at: 1s, externalPatch: { pod: web, status: { containerStatuses: [null] } } }'), 'INVALID_TYPE', /got null/),
  C('conditions a map', step('{ at: 1s, setPodStatus: { pod: web, status: { conditions: { type: Ready } } } }'), 'INVALID_TYPE', /expected a list/),
  C('conditions of strings', step('{ at: 1s, setPodStatus: { pod: web, status: { conditions: [Ready] } } }'), 'INVALID_TYPE', /expected a map/),
  C('phase a list', step('{ at: 1s, setPodStatus: { pod: web, status: { phase: [Running] } } }'), 'INVALID_TYPE', /got a list/),
  C('a time that is not RFC 3339', status('{ conditions: [{ type: Ready, status: "True", lastTransitionTime: yesterday }] }'), 'INVALID_TYPE', /RFC 3339/),
  C('a condition without its type', step('{ at: 1s, externalPatch: { pod: web, status: { conditions: [{ status: "True" }] } } }'), 'MISSING_FIELD', /known by its type/),
  C('a host IP without its ip', status('{ hostIPs: [{}] }'), 'MISSING_FIELD', /known by its ip/),
  C('state a list', status('{ containerStatuses: [{ name: main, state: [] }] }'), 'INVALID_TYPE', /ContainerState/),
  C('a set as a status', step('{ at: 1s, setPodStatus: { pod: web, status: !!set { a, b } } }'), 'YAML_TAG', /!!set/),
  C('binary in a status', step('{ at: 1s, setPodStatus: { pod: web, status: { message: !!binary aGk= } } }'), 'YAML_TAG', /!!binary/),
  // YAML: strictly 1.2 core, one document, bounded depth.
  C('%YAML 1.1', '%YAML 1.1\n---\n' + HEAD + '  seed: 1\n', 'YAML_DIRECTIVE', /YAML 1\.2/),
  C('%TAG', '%TAG !e! tag:example.com,2000:\n---\n' + HEAD + '  seed: 1\n', 'YAML_DIRECTIVE'),
  C('!!omap', HEAD + '  x-kss: { a: !!omap [ b: 1 ] }\n', 'YAML_TAG', /!!omap/),
  C('!!timestamp', HEAD + '  epoch: !!timestamp 2026-01-01\n', 'YAML_TAG', /!!timestamp/),
  C('unknown tag', HEAD + '  seed: !mine 1\n', 'YAML_TAG', /!mine/),
  C('collection key', HEAD + '  x-kss: { [a, b]: 1 }\n', 'YAML_KEY', /plain value/),
  C('multiple documents', HEAD + '  seed: 1\n---\nkind: Other\n', 'MULTIPLE_DOCUMENTS', /^(?![\s\S]*parseAllDocuments)[\s\S]*one YAML document/),
  C('2,000 deep flow', HEAD + `  x-kss: { a: ${'['.repeat(2000)}${']'.repeat(2000)} }\n`, 'TOO_DEEP', /nested more than 64 deep/),
  C('10,000 deep block', HEAD + '  x-kss:\n    a:\n' + `      ${'- '.repeat(10_000)}x\n`, 'TOO_DEEP'),
  C('duplicate key', HEAD + '  seed: 1\n  seed: 2\n', 'YAML_SYNTAX', /unique/i),
  C('tab indentation', HEAD + '\tseed: 1\n', 'YAML_SYNTAX'),
  C('unresolved alias', HEAD + '  until: *d\n', 'YAML_ALIAS', /anchor &d/),
  C('syntax error at the end of a large file', withPod('', `  x-kss:\n${Array.from({ length: 20_000 }, (_, i) => `    k${i}: v`).join('\n')}\n  broken: [\n`), 'YAML_SYNTAX'),
  C('non-UTF-8 bytes', Buffer.concat([Buffer.from(HEAD + '  x-kss: { a: "caf'), Buffer.from([0xe9]), Buffer.from('" }\n')]), 'NOT_UTF8', /0xe9/),
  C('UTF-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(HEAD, 'utf16le')]), 'NOT_UTF8'),
  C('empty file', '', 'EMPTY_FILE'),
  // Durations, times and numbers.
  C('400-digit until', HEAD + `  until: ${'9'.repeat(400)}s\n`, 'BAD_DURATION', /at most 100 years/),
  C('until 0.4ms', HEAD + '  until: 0.4ms\n', 'BAD_DURATION', /whole milliseconds/),
  C('until -5s', HEAD + '  until: -5s\n', 'BAD_DURATION', /negative/),
  C('until a bare number', HEAD + '  until: 30\n', 'BAD_DURATION', /no unit/),
  C('epoch past year 8999', HEAD + '  epoch: "9999-12-31T00:00:00Z"\n', 'INVALID_VALUE', /year 1000 to 8999/),
  C('@ time beyond 100 years', status('{ startTime: "@999999h" }'), 'BAD_TIME'),
  C('huge gracePeriodSeconds', step('{ at: 1s, delete: { pod: web, gracePeriodSeconds: 99999999999999 } }'), 'INVALID_VALUE', /<= 3155760000/),
  C('huge terminationGracePeriodSeconds', withPod('        terminationGracePeriodSeconds: 99999999999999\n'), 'INVALID_VALUE'),
  C('seed 1.5', HEAD + '  seed: 1.5\n', 'INVALID_TYPE', /integer/),
  C('step after until', withPod('', '  until: 1m\n  timeline:\n    - { at: 2m, partition: {} }\n'), 'AFTER_UNTIL', /after the end of the run/, 'spec.timeline[0].at'),
  C('assertion at after until', expectOne('apiserver: { pod: web, at: 11m, exists: true }'), 'AFTER_UNTIL', /600s \(the default\)/),
  // kss's own keys and references.
  C('unknown action', step('{ at: 1s, delet: { pod: web } }'), 'UNKNOWN_ACTION', /did you mean "delete"/),
  C('unknown assertion', expectOne('apiservr: { pod: web }'), 'UNKNOWN_ASSERTION', /did you mean "apiserver"/),
  C('unknown pod', step('{ at: 1s, delete: { pod: wbe } }'), 'UNKNOWN_POD', /did you mean "web"/),
  C('unknown container', withPod('      x-kss: { containers: { mian: [{ run: 1s }] } }\n'), 'UNKNOWN_CONTAINER', /did you mean "main"/),
  C('duplicate pod', withPod('', '    - metadata: { name: web }\n      spec: { containers: [{ name: c }] }\n'), 'DUPLICATE_POD'),
  // Hostile sizes: echoed values and issue lists stay bounded, control characters are escaped.
  C('a 1 MB bad value', HEAD + `  seed: "${'x'.repeat(1_000_000)}"\n`, 'INVALID_TYPE', /\(1000000 characters\)/),
  C('a 2 MB unknown key', HEAD + `  kubelet:\n    ? ${'k'.repeat(2_000_000)}\n    : 1\n`, 'UNKNOWN_KEY', /\(2000000 characters\)/),
  C('5,000 issues', HEAD + Array.from({ length: 5000 }, (_, i) => `  bad${i}: 1`).join('\n') + '\n', 'UNKNOWN_KEY', /MORE_ISSUES[\s\S]*and 4900 more issues/),
  C('control characters', HEAD + '  seed: "\u001b[2J\u001b]0;pwned\u0007"\n', 'INVALID_TYPE', /\\u001b\[2J/),
  // Files that are not scenario files.
  { name: 'a folder', file: () => (mkdirSync(join(dir, 'folder'), { recursive: true }), join(dir, 'folder')), code: 'FILE_IS_FOLDER', words: /kss test/, filePos: true, cmd: 'run' },
  { name: 'over the size limit', file: () => (writeFileSync(join(dir, 'big.yaml'), ''), truncateSync(join(dir, 'big.yaml'), 33 * 1024 * 1024), join(dir, 'big.yaml')), code: 'FILE_TOO_LARGE', words: /at most 32 MB/, filePos: true },
  { name: 'a missing file', file: () => join(dir, 'missing.yaml'), code: 'FILE_NOT_FOUND', filePos: true, cmd: 'run' },
];

async function cli(argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), color: false, cwd: dir });
  return { code, out, err };
}

describe('the bad-input catalogue', () => {
  it('has at least 50 kinds', () => expect(cases.length).toBeGreaterThanOrEqual(50));

  it.each(cases.map((c, i) => [c.name, c, i] as const))('%s', { timeout: 30_000 }, async (_name, c, i) => {
    let file: string;
    if (c.file) file = c.file();
    else {
      file = join(dir, `case-${i}.yaml`);
      writeFileSync(file, c.text!);
    }
    const r = await cli([c.cmd ?? (i % 2 === 0 ? 'validate' : 'run'), file]);
    expect(r.code).toBe(2);
    const esc = `(?:^|/)${basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`; // validate prints paths relative to cwd
    const head = c.filePos ? `${esc}: error ${c.code}` : `${esc}:\\d+:\\d+: error ${c.code}${c.at ? ` at ${c.at.replace(/[.[\]]/g, '\\$&')}` : ''}`;
    expect(r.err).toMatch(new RegExp(head, 'm'));
    if (c.words) expect(r.err).toMatch(c.words);
    expect(r.err).not.toMatch(/\n\s+at .*\.(js|ts):\d+/); // no stack trace
    expect(r.err).not.toMatch(/internal error/);
    // eslint-disable-next-line no-control-regex
    expect(r.err).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(r.err.length).toBeLessThan(200_000);
  });

  // The loader refuses these without opening them. (Through the CLI they are not tried here:
  // `kss run` reads the file again for code frames, which is the CLI's to change; LoadResult.text
  // now carries the text so it need not.)
  it.each([
    ['a device', '/dev/zero', /a device/],
    ['a FIFO', 'fifo', /a FIFO/],
  ])('%s is refused without blocking', (_name, target, words) => {
    let path = target;
    if (target === 'fifo') {
      path = join(dir, 'fifo');
      execFileSync('mkfifo', [path]);
    }
    const r = loadScenarioFile(path);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toMatchObject([{ code: 'FILE_NOT_REGULAR', line: 0, message: expect.stringMatching(words) }]);
  });

  it('an unreadable file says so (not as root, who reads everything)', async () => {
    if (process.getuid?.() === 0) return;
    const file = join(dir, 'secret.yaml');
    writeFileSync(file, HEAD);
    chmodSync(file, 0o000);
    const r = await cli(['validate', file]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/FILE_UNREADABLE[\s\S]*permission denied/);
  });
});
