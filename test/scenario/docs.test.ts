// docs/scenario-format.md is the users' reference of the format: every action and assertion the
// loader accepts, every spec and kubelet field, every x-kss key and every invariant is in it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTIONS, ASSERTIONS, FEATURE_GATES } from '../../src/scenario/schema.js';
import { INVARIANT_NAMES } from '../../src/scenario/types.js';
import { scenarioJsonSchema } from '../../src/scenario/index.js';

const doc = readFileSync('docs/scenario-format.md', 'utf8');
/** The names in the first column of the doc's tables: `| \`name\` |` or `| \`a\` / \`b\` |`. */
const tableNames = new Set([...doc.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) => [...m[1].matchAll(/`([^`]+)`/g)].map((g) => g[1])));

type Json = { properties?: Record<string, Json>; anyOf?: Json[]; items?: Json };
const props = (s: Json | undefined): Record<string, Json> => s?.properties ?? Object.assign({}, ...(s?.anyOf ?? []).map(props));

describe('docs/scenario-format.md', () => {
  it.each(Object.keys(ACTIONS))('documents the action %s in a table', (a) => expect(tableNames).toContain(a));
  it.each(Object.keys(ASSERTIONS))('documents the assertion %s in a table', (a) => expect(tableNames).toContain(a));
  it.each([...INVARIANT_NAMES])('documents the invariant %s', (n) => expect(tableNames).toContain(n));
  it.each([...FEATURE_GATES])('names the feature gate %s', (g) => expect(doc).toContain(`\`${g}\``));

  it('shows every field of spec, spec.kubelet and x-kss in its example, with the defaults', () => {
    const schema = scenarioJsonSchema() as Json;
    const spec = props(props(schema).spec);
    const fields = [...Object.keys(spec), ...Object.keys(props(spec.kubelet)).filter((k) => k !== 'featureGates')];
    const pod = props(props(spec.pods).items ?? spec.pods.anyOf?.find((s) => s.items)?.items);
    fields.push(...Object.keys(props(pod['x-kss'])));
    for (const f of fields.filter((k) => k !== 'x-kss')) expect(doc, f).toMatch(new RegExp(`^\\s+${f}:`, 'm'));
    expect(doc).toMatch(/until: .*default 600s/);
    expect(doc).toMatch(/invariants: all .*default/);
  });

  it('says what users need to know about attempts, violations and converged', () => {
    expect(doc).toMatch(/the last attempt repeats/);
    expect(doc).toMatch(/Each \(invariant, pod\) violation is reported once/);
    expect(doc).toMatch(/`converged.within` is measured from the instant of the \*\*last timeline step\*\*/);
  });

  it('is what the README links to, and points nowhere outside the repository', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain('(docs/scenario-format.md)');
    expect(readme).not.toMatch(/\.\.\/shared/);
    expect(doc).not.toMatch(/\.\.\/shared/);
  });
});
