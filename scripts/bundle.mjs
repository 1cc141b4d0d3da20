// Build step after tsc (npm run build / prepare): the CLI in one file, dist/cli/kss.cjs, with its
// manifest and its V8 code cache (see src/cli/bundle-loader.ts for how the bin uses them).
//   1. esbuild bundles dist/cli/entry.js and everything it imports (our modules, zod, yargs,
//      chalk, immer…) into one CommonJS file. Each module's `import.meta.url` becomes its own
//      place beside the bundle (relative to it), so the worker scripts and files found next to a
//      module (dist/testing/worker.js, yargs's locales) are found as before.
//   2. The manifest stamps the bundle and every dist/ module it holds.
//   3. A warm-up process loads the bundle, runs a few commands on the repo's scenarios, and writes
//      the code cache as it exits: the bytecode of every function compiled by then.
// Without esbuild (a checkout whose node_modules predates it), nothing is bundled and the bin runs
// the modules unbundled, as it does whenever the bundle is not current.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stringWidthFront } from './string-width-front.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const BUNDLE = join(DIST, 'cli/kss.cjs');

/** The commands of the warm-up, run in one process (output discarded). */
const WARM_UP = [
  ['--help'],
  ['run', '--help'],
  ['validate', 'scenarios/getting-started.yaml'],
  ['run', 'scenarios/getting-started.yaml', '--format', 'json'],
  ['run', 'scenarios/getting-started.yaml'],
  ['run', 'scenarios/node/crashloop-backoff.yaml', '--format', 'json'],
  ['test', 'scenarios/node', 'scenarios/behaviours', '-j', '1', '-q'],
];

async function warmUp(cacheOut) {
  const { loadBundle } = await import(pathToFileURL(join(DIST, 'cli/bundle-loader.js')).href);
  const bundle = loadBundle(DIST, { writeCacheTo: cacheOut });
  if (bundle === undefined) throw new Error('the bundle just built is not current');
  const io = { stdout: () => {}, stderr: () => {}, color: false, cwd: ROOT };
  for (const argv of WARM_UP) await bundle.main(argv, io);
}

/** `import.meta.url` of each bundled file: that file's URL, found from the bundle's own. */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.(c|m)?js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const rel = relative(dirname(BUNDLE), args.path).split('\\').join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, __kssBundleUrl).href`), loader: 'js' };
    });
  },
};

/**
 * `string-width` (yargs, cliui and wrap-ansi each import an ES module version of it) builds Unicode property
 * regexes and an Intl.Segmenter when it is first imported, about 14 ms of every start, and cliui's
 * 7.x segments every string it measures, ASCII or not. In the bundle each import of it is a small
 * front: a string of printable ASCII (U+0020–U+007E: no escape codes, no wide or zero-width
 * character) is as wide as it is long, which is every version's own answer, and anything else is
 * measured by the version the importer asked for, imported (and its regexes built) only then.
 * string-width-front.mjs writes the front; test/cli/string-width-front.test.ts checks it against
 * every installed version.
 */
const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, async (args) => {
      // the real one, for the front; and a require() (cli-progress's CommonJS 4.x) as it is
      if (args.pluginData === 'real' || args.kind !== 'import-statement') return undefined;
      const real = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: 'require-call', pluginData: 'real' });
      if (real.errors.length > 0) return { errors: real.errors };
      return { path: real.path, namespace: 'lazy-string-width' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-string-width' }, (args) => ({ contents: stringWidthFront(args.path), resolveDir: dirname(args.path), loader: 'js' }));
  },
};

async function bundle() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    console.error('scripts/bundle.mjs: esbuild is not installed (npm ci installs it): no bundle, the bin runs the modules unbundled');
    return;
  }
  const { stampOf, MANIFEST_FILE, CACHE_FILE, BUNDLE_FILE } = await import(pathToFileURL(join(DIST, 'cli/bundle-loader.js')).href);
  const manifestPath = join(DIST, MANIFEST_FILE);
  rmSync(manifestPath, { force: true });
  rmSync(join(DIST, CACHE_FILE), { force: true });
  const result = await esbuild.build({
    entryPoints: [join(DIST, 'cli/entry.js')],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [lazyStringWidth, ownImportMetaUrl],
    banner: { js: "var __kssBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    metafile: true,
    minifyWhitespace: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs)
    .map((p) => resolve(ROOT, p))
    .filter((p) => p.startsWith(DIST + '/'))
    .map((p) => relative(DIST, p).split('\\').join('/'))
    .sort()
    .map((rel) => stampOf(DIST, rel));
  const manifest = { kssBundle: 1, bundle: stampOf(DIST, BUNDLE_FILE), inputs };
  writeFileSync(manifestPath, JSON.stringify(manifest) + '\n');

  const tmp = join(DIST, `${CACHE_FILE}.${process.pid}.tmp`);
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--warm-up', tmp], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0 || !existsSync(tmp)) {
    rmSync(tmp, { force: true });
    console.error(`scripts/bundle.mjs: the warm-up failed (exit ${r.status}): the bundle runs without a code cache`);
    return;
  }
  renameSync(tmp, join(DIST, CACHE_FILE));
  writeFileSync(manifestPath, JSON.stringify({ ...manifest, cache: stampOf(DIST, CACHE_FILE), node: process.version }) + '\n');
}

if (process.argv[2] === '--warm-up') await warmUp(process.argv[3]);
else await bundle();
