// Goldens (projection, diff) and JUnit XML (escaping), as units.
import { describe, expect, it } from 'vitest';
import { diffLines, firstDifference, goldenLines, goldenPathFor } from '../../src/report/golden.js';
import { junitXml, xmlEscape } from '../../src/report/junit.js';
import { parseShard, takeShard } from '../../src/testing/discover.js';
import { descendants, parseXml } from './helpers.js';

describe('golden projection', () => {
  it('keeps decisions, requests and runtime events, drops seq, logs and steps, sorts fields', () => {
    const lines = goldenLines({
      scenario: { name: 'x' },
      seed: 1,
      variant: 'current',
      trace: [
        { t: 0, seq: 0, actor: 'timeline', type: 'step', pod: 'default/a', action: 'setPodStatus' },
        { t: 0, seq: 1, actor: 'kubelet', type: 'status.set', pod: 'default/a', version: 1, uid: 'u' },
        { t: 0, seq: 2, actor: 'kubelet', type: 'log', level: 'info', msg: 'hello' },
        { t: 5, seq: 3, actor: 'kubelet', type: 'api.patch', pod: 'default/a', resourceVersion: '2', code: 200, body: { z: 1, a: { y: 2, b: 3 } } },
        { t: 6, seq: 4, actor: 'runtime', type: 'runtime.exit', pod: 'default/a', container: 'main', code: 0 },
        { t: 7, seq: 5, actor: 'invariant', type: 'invariant.violation', pod: 'default/a', invariant: 'terminal-phase-sticky', message: 'long words' },
        { t: 8, seq: 6, actor: 'kubelet', type: 'pleg.event', pod: 'default/a' },
      ],
      storedAt: (rv) => (rv === 2 ? { uid: 'u', status: { phase: 'Running' } } : undefined),
      final: [{ pod: 'default/a', final: 'kubelet', version: 1 }],
    });
    expect(lines).toEqual([
      '{"golden":"kss/v1","scenario":"x","seed":1,"variant":"current"}',
      '{"t":0,"type":"status.set","actor":"kubelet","pod":"default/a","uid":"u","version":1}',
      '{"t":5,"type":"api.patch","actor":"kubelet","pod":"default/a","body":{"a":{"b":3,"y":2},"z":1},"code":200,"resourceVersion":"2","stored":{"status":{"phase":"Running"},"uid":"u"}}',
      '{"t":6,"type":"runtime.exit","actor":"runtime","pod":"default/a","code":0,"container":"main"}',
      '{"t":7,"type":"invariant.violation","actor":"invariant","pod":"default/a","invariant":"terminal-phase-sticky"}',
      '{"final":"kubelet","pod":"default/a","version":1}',
    ]);
  });

  it('lives beside its scenario', () => {
    expect(goldenPathFor('scenarios/basics/job.yaml')).toBe('scenarios/basics/job.golden.jsonl');
    expect(goldenPathFor('a.yml')).toBe('a.golden.jsonl');
  });
});

describe('diffLines', () => {
  const base = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);

  it('is empty for equal inputs', () => {
    expect(diffLines(base, [...base])).toEqual([]);
  });

  it('shows a changed line with three lines of context and a hunk header', () => {
    const b = [...base];
    b[14] = 'changed';
    expect(diffLines(base, b)).toEqual(['--- expected', '+++ actual', '@@ -12,7 +12,7 @@', '  line 12', '  line 13', '  line 14', '- line 15', '+ changed', '  line 16', '  line 17', '  line 18']);
  });

  it('shows insertions and deletions minimally, in separate hunks', () => {
    const b = [...base.slice(0, 2), 'new', ...base.slice(2, 25), ...base.slice(26)];
    const d = diffLines(base, b);
    expect(d.filter((l) => l.startsWith('+ '))).toEqual(['+ new']);
    expect(d.filter((l) => l.startsWith('- '))).toEqual(['- line 26']);
    expect(d.filter((l) => l.startsWith('@@'))).toHaveLength(2);
  });

  it('caps its output and counts what it leaves out', () => {
    const b = base.map((l) => l + '!');
    const d = diffLines(base, b, { maxLines: 10 });
    expect(d.length).toBeLessThanOrEqual(13);
    expect(d[d.length - 1]).toMatch(/^… and \d+ more differing line\(s\)$/);
  });

  it('handles one side empty', () => {
    expect(diffLines([], ['a'])).toEqual(['--- expected', '+++ actual', '@@ -0,0 +1,1 @@', '+ a']);
    expect(diffLines(['a'], [])).toEqual(['--- expected', '+++ actual', '@@ -1,1 +0,0 @@', '- a']);
  });

  it('names the first differing field of JSON lines', () => {
    expect(firstDifference(['{"a":1,"b":{"c":[1,2]}}'], ['{"a":1,"b":{"c":[1,3]}}'])).toBe('line 1: b.c[1]: expected 2, got 3');
    expect(firstDifference(['x'], ['x', 'y'])).toContain('more lines');
    expect(firstDifference(['x'], ['x'])).toBeUndefined();
  });
});

describe('JUnit XML', () => {
  it('escapes markup, quotes and control characters so the file always parses', () => {
    const nasty = 'a < b && c > "d" \'e\' \u0001 \u001b[31mred\u001b[0m ]]> \ud800 ok 😀';
    const xml = [...junitXml([{ name: 'suite <1>', timeMs: 1234, cases: [
      { classname: 'a.b', name: nasty, timeMs: 5, failure: { message: nasty + '\nsecond line', body: nasty } },
      { classname: 'a.c', name: 'skipped one', timeMs: 0, skipped: 'because' },
      { classname: 'a.d', name: 'fine', timeMs: 1, systemOut: 'note & more' },
    ] }])].join('');
    const root = parseXml(xml);
    expect(root.attrs).toMatchObject({ tests: '3', failures: '1', skipped: '1', time: '1.234' });
    const cases = descendants(root, 'testcase');
    expect(cases[0].attrs.name).toBe(nasty.replace('\u0001', '\\u0001').replace(/\u001b/g, '\\u001b').replace('\ud800', '\\ud800'));
    expect(descendants(cases[0], 'failure')[0].attrs.message).toContain('\nsecond line');
    expect(descendants(cases[1], 'skipped')[0].attrs.message).toBe('because');
    expect(descendants(cases[2], 'system-out')[0].text).toBe('note & more');
    expect(xmlEscape('<&>"\'')).toBe('&lt;&amp;&gt;&quot;&apos;');
  });
});

describe('shards', () => {
  it('parses i/n and splits by position modulo n', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '1/0', 'a/b', '1', '-1/2']) expect(parseShard(bad)).toBeUndefined();
    const items = Array.from({ length: 10 }, (_, i) => i);
    const parts = [1, 2, 3].map((index) => takeShard(items, { index, count: 3 }));
    expect(parts).toEqual([[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]]);
    expect(takeShard(items, { index: 5, count: 12 })).toEqual([4]);
    expect(takeShard(items, { index: 12, count: 12 })).toEqual([]);
  });
});
