// Choice-log files for `kss run --choices FILE` and `--record-choices FILE` (docs/choices.md).
//
// Written as JSON Lines: a header line {"type":"choices",...} naming the run that made it, then one
// entry per line {"i":0,"label":"apiserver/uid","kind":"hex","arity":4294967296,"value":305419896}.
// Read: that, or JSONL entries without a header, or one JSON document: an array of entries or bare
// values, or {"ties":true,"choices":[...]}. Errors name the file, line and column.
import { readFileSync } from 'node:fs';
import type { ChoiceEntry, ChoiceKind, ChoiceStep, TieMode } from '../engine/index.js';
import type { Variant } from '../scenario/types.js';

const KINDS: readonly ChoiceKind[] = ['int', 'pick', 'shuffle', 'skip', 'hex', 'float', 'tie'];

export interface ChoicesFile {
  steps: ChoiceStep[];
  ties: TieMode;
  seed?: number;
  variant?: Variant;
}

export class ChoicesFileError extends Error {}

function fail(file: string, line: number, col: number, path: string, expected: string, got: unknown): never {
  const shown = typeof got === 'string' ? JSON.stringify(got) : JSON.stringify(got) ?? String(got);
  throw new ChoicesFileError(
    `${file}:${line}:${col}: error BAD_CHOICES${path ? ` at ${path}` : ""}\n  expected ${expected}, got ${shown}\n` +
      `  a choices file is JSON Lines of {"label","kind","arity","value"} entries (kss run --record-choices writes one), or a JSON array of them or of bare values`,
  );
}

/** One step of a sequence: a bare number, or an entry whose value is a number. */
function step(file: string, line: number, col: number, path: string, v: unknown): ChoiceStep {
  if ((typeof v === 'number' && Number.isFinite(v)) || v === null) return v;
  if (typeof v !== 'object' || Array.isArray(v)) return fail(file, line, col, path, 'a number, null (the seed decides), or an object {"value": number, ...}', v);
  const o = v as Record<string, unknown>;
  if (typeof o.value !== 'number' || !Number.isFinite(o.value)) return fail(file, line, col, `${path}.value`, 'a finite number', o.value);
  const s: { value: number; label?: string; kind?: ChoiceKind; arity?: number } = { value: o.value };
  if (o.label !== undefined) {
    if (typeof o.label !== 'string') return fail(file, line, col, `${path}.label`, 'a string', o.label);
    s.label = o.label;
  }
  if (o.kind !== undefined) {
    if (!KINDS.includes(o.kind as ChoiceKind)) return fail(file, line, col, `${path}.kind`, `one of ${KINDS.join(', ')}`, o.kind);
    s.kind = o.kind as ChoiceKind;
  }
  if (o.arity !== undefined) {
    if (typeof o.arity !== 'number' || !Number.isInteger(o.arity) || o.arity < 0) return fail(file, line, col, `${path}.arity`, 'an integer ≥ 0', o.arity);
    s.arity = o.arity;
  }
  return s;
}

/** Line and column of a character offset. */
function lineCol(text: string, offset: number): [number, number] {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return [line, offset - before.lastIndexOf('\n')];
}

function parseJson(file: string, text: string, lineNo: number, lineStart: number): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const [l, c] = m ? lineCol(text, Number(m[1])) : [1, 1];
    return fail(file, lineNo + l - 1, (l === 1 ? lineStart : 0) + c, '', 'valid JSON', (e as Error).message.split('\n')[0]);
  }
}

function header(out: ChoicesFile, file: string, line: number, o: Record<string, unknown>): void {
  if (o.ties !== undefined && typeof o.ties !== 'boolean' && o.ties !== 'random') fail(file, line, 1, 'ties', 'true, false or "random"', o.ties);
  out.ties = (o.ties as TieMode | undefined) ?? false;
  if (typeof o.seed === 'number' && Number.isInteger(o.seed)) out.seed = o.seed;
  if (o.variant === 'classic' || o.variant === 'transitional' || o.variant === 'current') out.variant = o.variant;
}

/** Parse a choices file's text (`file` names it in errors). */
export function parseChoices(file: string, text: string): ChoicesFile {
  const out: ChoicesFile = { steps: [], ties: false };
  const lead = text.length - text.trimStart().length;
  const at = lineCol(text, lead);
  const lines = text.split('\n');
  const nonEmpty = lines.filter((l) => l.trim() !== '').length;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    if (nonEmpty < 2) parseJson(file, text, 1, 0); // one line that is not JSON: say where
    // JSON Lines: a header line {"type":"choices",...} and one entry per line.
    lines.forEach((l, k) => {
      if (l.trim() === '') return;
      const v = parseJson(file, l, k + 1, 0);
      if (v !== null && typeof v === 'object' && (v as { type?: unknown }).type === 'choices') header(out, file, k + 1, v as Record<string, unknown>);
      else out.steps.push(step(file, k + 1, 1, `line ${k + 1}`, v));
    });
    return out;
  }
  if (Array.isArray(doc)) {
    doc.forEach((v, i) => out.steps.push(step(file, at[0], at[1], `[${i}]`, v)));
    return out;
  }
  if (doc === null || typeof doc !== 'object') return fail(file, at[0], at[1], '', 'a JSON array, a {"choices": [...]} object, or JSON Lines', doc);
  const o = doc as Record<string, unknown>;
  if (o.type === 'choices') {
    header(out, file, 1, o); // a header alone: no choices
    return out;
  }
  if (!Array.isArray(o.choices)) {
    if ('value' in o) return { ...out, steps: [step(file, at[0], at[1], 'line 1', o)] }; // JSON Lines of one entry
    return fail(file, at[0], at[1], 'choices', 'an array', o.choices);
  }
  header(out, file, 1, o);
  o.choices.forEach((v, i) => out.steps.push(step(file, at[0], at[1], `choices[${i}]`, v)));
  return out;
}

export function readChoicesFile(path: string, shown: string): ChoicesFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ChoicesFileError(`error NOT_FOUND at --choices: cannot read ${shown}: ${(e as Error).message}`);
  }
  return parseChoices(shown, text);
}

/** The lines of a recorded log: a header, then one entry per line. */
export function* choicesLines(meta: { version: string; scenario: string; seed: number; variant: Variant; ties: TieMode }, entries: readonly ChoiceEntry[]): Generator<string> {
  yield JSON.stringify({ kss: meta.version, type: 'choices', scenario: meta.scenario, seed: meta.seed, variant: meta.variant, ties: meta.ties, count: entries.length }) + '\n';
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    yield JSON.stringify({ i, label: e.label, kind: e.kind, arity: e.arity, value: e.value }) + '\n';
  }
}
