#!/usr/bin/env node
// Generates src/scenario/k8s/pod-schema.data.ts: the Kubernetes v1 Pod schema (every type
// reachable from io.k8s.api.core.v1.Pod: field names, types, enums, integers) as data, from
// the npm package kubernetes-models (pinned in devDependencies), which is generated from the
// Kubernetes OpenAPI spec with its enums. Field names and types come from its type
// declarations; integer-ness from its compiled OpenAPI validators. Run it after bumping that
// package: `node scripts/gen-pod-schema.mjs` (`--check` only compares). test/scenario/
// pod-schema.test.ts checks that the committed data is what this script makes.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const pkgDir = dirname(require.resolve('kubernetes-models/package.json'));
const apiDir = dirname(require.resolve('@kubernetes-models/apimachinery/package.json'));
const OUT = join(root, 'src/scenario/k8s/pod-schema.data.ts');

/** Resolve an import specifier of a kubernetes-models .d.ts to a file. */
function resolveImport(fromFile, spec) {
  if (spec.startsWith('.')) return resolve(dirname(fromFile), `${spec}.d.ts`);
  if (spec.startsWith('@kubernetes-models/apimachinery/')) return join(apiDir, `${spec.slice('@kubernetes-models/apimachinery/'.length)}.d.ts`);
  return undefined;
}

/** The short name of a definition: IIoK8sApiCoreV1PodSpec → core.v1.PodSpec. */
function shortName(iname) {
  const m = /^IIoK8s(?:Api|ApimachineryPkg(?:Apis|Api|Util)?)([A-Z][a-z0-9]*)(V\d+(?:(?:alpha|beta)\d+)?)?(.*)$/.exec(iname);
  if (!m) return iname;
  return [m[1].toLowerCase(), m[2]?.toLowerCase(), m[3]].filter(Boolean).join('.');
}

/** Parse one .d.ts: its imports and its interface (or type alias). */
function parseFile(file) {
  const text = readFileSync(file, 'utf8').replace(/\/\*\*[\s\S]*?\*\//g, '');
  const imports = {};
  for (const m of text.matchAll(/import \{ ([^}]+) \} from "([^"]+)";/g))
    for (const n of m[1].split(',').map((s) => s.trim())) imports[n] = resolveImport(file, m[2]);
  const alias = /export declare type I\w+ = ([^;]+);/.exec(text);
  if (alias) return { imports, alias: alias[1].trim() };
  const body = /export interface I\w+(?: extends [\w, ]+)? \{\n([\s\S]*?)^\}/m.exec(text);
  if (!body) throw new Error(`no interface in ${file}`);
  const props = {};
  const required = [];
  for (const m of body[1].matchAll(/^ {4}"([^"]+)"(\??): ([^;{]+|\{\s*\[key: string\]: [^;]+;\s*\});/gm)) {
    props[m[1]] = m[3].replace(/\s+/g, ' ').trim();
    if (m[2] !== '?') required.push(m[1]);
  }
  if (body[1].trim() !== '' && Object.keys(props).length === 0) throw new Error(`cannot read the fields of ${file}`);
  return { imports, props, required };
}

/** Whether the compiled validator of `iname` calls a number field an integer. */
function isInteger(iname, field) {
  const name = `${iname.slice(1)}.js`;
  const file = iname.startsWith('IIoK8sApimachinery') ? join(apiDir, '_schemas', name) : join(pkgDir, '_schemas', name);
  const { validate } = require(file);
  validate({ [field]: 0.5 });
  return (validate.errors ?? []).some((e) => e.instancePath === `/${field}` && e.keyword === 'type' && e.params.type === 'integer');
}

export function generate() {
  const types = {};
  const queue = [['IIoK8sApiCoreV1Pod', join(pkgDir, 'v1/Pod.d.ts')]];
  const seen = new Set();
  /** A type expression of a .d.ts, in the data's notation. */
  const expr = (t, imports, owner, field) => {
    t = t.trim();
    if (t === 'string' || t === 'boolean') return t;
    if (t === 'number') return owner && isInteger(owner, field) ? 'integer' : 'number';
    if (/^"[^"]*"( \| "[^"]*")*$/.test(t)) return `enum:${t.split(' | ').map((s) => JSON.parse(s)).join('|')}`;
    let m = /^Array<(.+)>$/.exec(t);
    if (m) return `[]${expr(m[1], imports)}`;
    m = /^\{ \[key: string\]: (.+); \}$/.exec(t);
    if (m) return `{}${expr(m[1], imports)}`;
    if (/^I\w+$/.test(t) && imports[t]) {
      const file = imports[t];
      const parsed = parseFile(file);
      if (parsed.alias) {
        if (/^IIoK8sApimachineryPkgApisMetaV1(Micro)?Time$/.test(t)) return 'time'; // metav1.Time: RFC 3339
        if (parsed.alias === 'string') return 'string';
        if (parsed.alias === 'string | number' || parsed.alias === 'number | string') return 'string|number';
        throw new Error(`unknown alias ${parsed.alias} in ${file}`);
      }
      if (Object.keys(parsed.props).length === 0) return 'any'; // free-form (FieldsV1, RawExtension)
      if (!seen.has(t)) {
        seen.add(t);
        queue.push([t, file]);
      }
      return shortName(t);
    }
    throw new Error(`cannot read type ${t} (${owner}.${field})`);
  };
  while (queue.length > 0) {
    const [iname, file] = queue.shift();
    const { imports, props } = parseFile(file);
    const fields = {};
    for (const [f, t] of Object.entries(props)) fields[f] = expr(t, imports, iname, f);
    types[shortName(iname)] = fields;
  }
  const version = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
  const sorted = Object.fromEntries(Object.keys(types).sort().map((k) => [k, types[k]]));
  const lines = Object.entries(sorted).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`);
  return [
    `// Generated by scripts/gen-pod-schema.mjs from kubernetes-models@${version} (the Kubernetes`,
    '// v1.33.0 OpenAPI v3 definitions, with enums). Do not edit: bump the package and regenerate.',
    '// Notation: string | boolean | number | integer | time (RFC 3339) | string|number (IntOrString,',
    '// Quantity) | any (free-form) | enum:A|B | []T (list) | {}T (map) | a type name of this table.',
    `export const POD_SCHEMA_SOURCE = 'kubernetes-models@${version} (Kubernetes v1.33.0 OpenAPI)';`,
    'export const POD_TYPES: Record<string, Record<string, string>> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = generate();
  if (process.argv.includes('--check')) {
    const same = readFileSync(OUT, 'utf8') === text;
    process.stdout.write(same ? 'up to date\n' : `${OUT} differs: run node scripts/gen-pod-schema.mjs\n`);
    process.exit(same ? 0 : 1);
  }
  writeFileSync(OUT, text);
  process.stdout.write(`wrote ${OUT}\n`);
}
