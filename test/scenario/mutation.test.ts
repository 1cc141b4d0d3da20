// Bad input never crashes the loader: every repo scenario, mutated at random (characters cut or
// inserted, a line dropped or doubled, a scalar swapped for one of another type), either still
// loads or is refused with issues that each carry a code, a message and a place. Whatever loads
// also runs (a mutation that survives validation is a scenario like any other).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discoverScenarios } from '../../src/testing/index.js';
import { loadScenario, renderIssues } from '../../src/scenario/index.js';
import { runScenario } from '../../src/world/run.js';

const files = discoverScenarios(['scenarios'], process.cwd()).files.map((f) => f.display);
const texts = files.map((f) => readFileSync(f, 'utf8'));

const SCALARS = ['0', '-1', '1.5', 'true', 'null', '~', '""', '"x"', '[]', '{}', '10s', '1ms..0ms', '99999999999h', 'Always', '@3s', '{ $ne: 1 }', '&a', '*a', '!!binary x', '- x'];

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

const mutationGen: fc.Arbitrary<Mutation> = fc.record({ kind: fc.integer({ min: 0, max: 4 }), at: fc.nat(), len: fc.nat(), pick: fc.nat() });

describe('mutated scenarios', () => {
  it('load or are refused with placed issues, and what loads runs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: texts.length - 1 }), fc.array(mutationGen, { minLength: 1, maxLength: 3 }), (i, ms) => {
        const text = ms.reduce(mutate, texts[i]);
        const r = loadScenario(text, files[i]);
        if (r.ok) {
          const run = runScenario({ ...r.scenario, untilMs: Math.min(r.scenario.untilMs, 120_000) }, { keepTrace: false });
          expect(['until', 'idle', 'runaway']).toContain(run.end);
          return;
        }
        expect(r.issues.length).toBeGreaterThan(0);
        for (const issue of r.issues) {
          expect(issue.code).toMatch(/^[A-Z_]+$/);
          expect(issue.message.length).toBeGreaterThan(0);
          expect(issue.line).toBeGreaterThanOrEqual(1);
          expect(issue.col).toBeGreaterThanOrEqual(1);
        }
        expect(() => renderIssues(r.issues, text)).not.toThrow();
      }),
      { numRuns: Number(process.env.KSS_FUZZ_RUNS ?? 150), seed: Number(process.env.KSS_FUZZ_SEED ?? 20261129) },
    );
  });
});
