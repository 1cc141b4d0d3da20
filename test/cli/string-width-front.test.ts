// The front the bundle puts before each ES-module string-width (scripts/string-width-front.mjs):
// for every installed version, the same width as the module itself, for printable ASCII (the
// front's own answer) and for anything else (the module's, through the front).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.js';

type Width = (s: unknown, o?: object) => number;

function installed(dir: string, out: string[] = []): string[] {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const p = join(dir, d.name);
    if (d.name === 'string-width' && existsSync(join(p, 'package.json'))) {
      const pkg = JSON.parse(readFileSync(join(p, 'package.json'), 'utf8')) as { type?: string };
      if (pkg.type === 'module') out.push(p);
    }
    if (d.name === 'node_modules' || d.name.startsWith('@') || existsSync(join(p, 'node_modules'))) installed(d.name === 'node_modules' || d.name.startsWith('@') ? p : join(p, 'node_modules'), out);
  }
  return out;
}

const SAMPLES = ['', 'kss run scenarios/getting-started.yaml', '\u001b[31mred\u001b[39m', 'tab\there', 'naïve', '日本語', '👍🏽', 'e\u0301', '\u200b', 'a\u0000b', '×→…', '\u009b1m'];

describe('the bundle front of string-width', async () => {
  const { stringWidthFront } = (await import(pathToFileURL(join(REPO, 'scripts/string-width-front.mjs')).href)) as { stringWidthFront: (real: string) => string };
  const versions = installed(join(REPO, 'node_modules'));
  it('finds the ES module versions yargs uses', () => expect(versions.length).toBeGreaterThanOrEqual(2));
  for (const dir of versions) {
    it(`measures as ${dir.slice(REPO.length + 1)} does`, async () => {
      const real = (await import(pathToFileURL(join(dir, 'index.js')).href)) as { default: Width };
      const body = stringWidthFront(join(dir, 'index.js')).replace('export default function', 'function');
      const front = new Function('require', `${body}\nreturn stringWidth;`)(() => real) as Width;
      for (const s of SAMPLES) {
        expect(front(s), JSON.stringify(s)).toBe(real.default(s));
        expect(front(s, { countAnsiEscapeCodes: true }), JSON.stringify(s)).toBe(real.default(s, { countAnsiEscapeCodes: true }));
      }
      fc.assert(fc.property(fc.string({ unit: 'grapheme-ascii' }), (s) => front(s) === real.default(s)), { numRuns: 300 });
      fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => front(s) === real.default(s)), { numRuns: 300 });
    });
  }
});
