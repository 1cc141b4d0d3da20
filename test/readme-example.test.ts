// The README's library example, kept honest: it must run as written, imported by the package's
// name (a self-reference: it resolves to the built dist/index.js, as in another project).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenarioFile, runScenario } from 'kubelet-status-sim';
import { expect, test } from 'vitest';

test('a Job reaches Succeeded and its status converges', () => {
  const loaded = loadScenarioFile('scenarios/node/job-succeeds.yaml');
  if (!loaded.ok) throw new Error(loaded.issues.map((i) => i.message).join('\n'));
  const r = runScenario(loaded.scenario, { seed: 3, variant: 'classic' });
  expect(r.verdict).toBe('pass');
  expect(r.trace.filter((e) => e.type === 'api.request' && e.verb === 'patch').length).toBeGreaterThan(0);
});

test('the README shows this example, under the package name of package.json', () => {
  const root = join(import.meta.dirname, '..');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> };
  expect(pkg.name).not.toBe('kss'); // `kss` on the npm registry is another project
  expect(Object.keys(pkg.bin)).toEqual(['kss']);
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const self = readFileSync(join(root, 'test/readme-example.test.ts'), 'utf8');
  const body = self.slice(self.indexOf("test('a Job"), self.indexOf('\n});\n') + 4);
  expect(readme).toContain(`import { loadScenarioFile, runScenario } from '${pkg.name}';`);
  expect(readme).toContain(body);
});
