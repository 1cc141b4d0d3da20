// Bad input never crashes kss: every repo scenario, mutated at random (characters cut or inserted,
// a line dropped or doubled, a value swapped for a hostile one: another type, a wrong shape, a
// YAML 1.1 tag, deep nesting, a huge number, control characters), either still loads or is refused
// with issues that each carry a code, a message and a place. Whatever loads is also run (capped by
// until and max-events), and the run must not throw: a mutation that survives validation is a
// scenario like any other. `npm run fuzz` runs 5,000 documents; KSS_FUZZ_RUNS sets the count.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discoverScenarios } from '../../src/testing/index.js';
import { loadScenario, renderIssues } from '../../src/scenario/index.js';
import { runScenario } from '../../src/world/run.js';

const files = discoverScenarios(['scenarios'], process.cwd()).files.map((f) => f.display);
const texts = files.map((f) => readFileSync(f, 'utf8'));

const SCALARS = [
  '0', '-1', '1.5', 'true', 'null', '~', '""', '"x"', '[]', '{}', '10s', '1ms..0ms', '99999999999h', 'Always', '@3s', '{ $ne: 1 }', '&a', '*a',
  '!!binary x', '- x', '!!set { a, b }', '!!timestamp 2001-12-14', '!!omap [a: 1]', '!foo x', '{ [a]: 1 }', '1e400', `${'9'.repeat(400)}s`,
  '0.4ms', '-5s', '[Running]', '{ phase: Running }', '[{ type: 1 }]', '{ toString: 1, constructor: 2 }', '"\\u001b[31mred"', '"\\u0000"',
  `${'['.repeat(80)}${']'.repeat(80)}`, '9007199254740993', '@99999999h', '"9999-12-31T23:59:59Z"', '[null]', '{ containerStatuses: 7 }',
  '{ conditions: { type: Ready } }', '{ state: [] }', '2000000000', '-0', '.inf', '.nan', '0x10', '"\\ud800"',
];

type Mutation = { kind: number; at: number; len: number; pick: number };

function mutate(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const pos = m.at % Math.max(1, text.length);
  const li = m.at % lines.length;
  switch (m.kind) {
    case 0: // cut a few characters
      return text.slice(0, pos) + text.slice(pos + 1 + (m.len % 8));
    case 1: // insert a YAML-significant character
      return text.slice(0, pos) + ':-[]{},#&*!|>\'"%@`\t'[m.pick % 20] + text.slice(pos);
    case 2: // drop a line
      return lines.filter((_, i) => i !== li).join('\n');
    case 3: // double a line
      return [...lines.slice(0, li + 1), lines[li], ...lines.slice(li + 1)].join('\n');
    default: {
      // replace the value after the first ": " of a line with a scalar of some other kind
      const line = lines[li];
      const c = line.indexOf(': ');
      if (c < 0) return text;
      lines[li] = line.slice(0, c + 2) + SCALARS[m.pick % SCALARS.length];
      return lines.join('\n');
    }
  }
}

const mutationGen: fc.Arbitrary<Mutation> = fc.record({ kind: fc.integer({ min: 0, max: 5 }), at: fc.nat(), len: fc.nat(), pick: fc.nat() });
const RUNS = Number(process.env.KSS_FUZZ_RUNS ?? (process.env.npm_lifecycle_event === 'fuzz' ? 5000 : 150));

describe('mutated scenarios', () => {
  it(`load or are refused with placed issues, and what loads runs (${RUNS} documents)`, { timeout: Math.max(60_000, RUNS * 200) }, () => {
    let loaded = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: texts.length - 1 }), fc.array(mutationGen, { minLength: 1, maxLength: 3 }), (i, ms) => {
        const text = ms.reduce(mutate, texts[i]);
        const r = loadScenario(text, files[i]);
        if (r.ok) {
          loaded++;
          const run = runScenario({ ...r.scenario, untilMs: Math.min(r.scenario.untilMs, 120_000) }, { keepTrace: false, maxEvents: 200_000 });
          expect(['until', 'idle', 'runaway']).toContain(run.end);
          return;
        }
        expect(r.issues.length).toBeGreaterThan(0);
        for (const issue of r.issues) {
          expect(issue.code).toMatch(/^[A-Z_0-9]+$/);
          expect(issue.message.length).toBeGreaterThan(0);
          expect(issue.line).toBeGreaterThanOrEqual(1);
          expect(issue.col).toBeGreaterThanOrEqual(1);
        }
        const shown = renderIssues(r.issues, text);
        // eslint-disable-next-line no-control-regex
        expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
      }),
      { numRuns: RUNS, seed: Number(process.env.KSS_FUZZ_SEED ?? 20261129) },
    );
    if (process.env.KSS_FUZZ_REPORT) process.stdout.write(`fuzz: ${RUNS} documents, ${loaded} loaded and ran\n`);
  });
});
