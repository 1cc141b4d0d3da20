import { describe, expect, it } from 'vitest';
import { loadScenario, renderIssues, type Issue } from '../../src/scenario/index.js';

const TEXT = `apiVersion: kss/v1alpha1
kind: Scenario
metadata:
  name: evict
spec:
  until: 30
  pods:
    - metadata: { name: a }
      spec: { containers: [{ name: main }] }
    - metadata: { name: b }
      spec:
        containers: [{ name: main }]
        terminationGracePeriodSeconds: 5
        restartPolicy: always
`;

describe('renderIssues', () => {
  it('renders like a compiler, with a code frame under each issue', () => {
    const r = loadScenario(TEXT, 'scenarios/evict.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(renderIssues(r.issues, TEXT)).toBe(
      [
        'scenarios/evict.yaml:6:10: error BAD_DURATION at spec.until',
        '  expected a duration like "500ms", "10s" or "1m30s", got 30: a bare number has no unit',
        '  6 |   until: 30',
        '    |          ^^',
        '',
        'scenarios/evict.yaml:14:24: error INVALID_VALUE at spec.pods[1].spec.restartPolicy',
        '  expected "Always" | "Never" | "OnFailure", got "always"; did you mean "Always"?',
        '  14 |         restartPolicy: always',
        '     |                        ^^^^^^',
      ].join('\n'),
    );
  });

  it('leaves out the frame without the text, and the position when there is none', () => {
    const issues: Issue[] = [
      { code: 'UNKNOWN_KEY', message: 'unknown key "sed"; did you mean "seed"?', file: 'x.yaml', line: 3, col: 3, endCol: 6, path: 'spec.sed' },
      { code: 'FILE_NOT_FOUND', message: 'cannot read y.yaml: no such file', file: 'y.yaml', line: 0, col: 0, path: '' },
    ];
    expect(renderIssues(issues)).toBe(
      'x.yaml:3:3: error UNKNOWN_KEY at spec.sed\n  unknown key "sed"; did you mean "seed"?\n\ny.yaml: error FILE_NOT_FOUND\n  cannot read y.yaml: no such file',
    );
  });

  it('keeps tabs in the caret padding and underlines at least one column', () => {
    const issue: Issue = { code: 'YAML_SYNTAX', message: 'oops', file: 'f', line: 2, col: 3, path: '' };
    expect(renderIssues([issue], 'a: 1\n\tb: x\n')).toBe('f:2:3: error YAML_SYNTAX\n  oops\n  2 | \tb: x\n    | \t ^');
  });
});
