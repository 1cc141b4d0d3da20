// The timeline's step table against the loader and the docs: every action the loader accepts has
// exactly one handler, every handler an action the loader accepts, and every action a row in the
// scenario-format docs (README.md, and docs/*.md when present).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTIONS } from '../../src/scenario/schema.js';
import { STEP_GROUPS, STEP_HANDLERS } from '../../src/world/steps/index.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The scenario-format docs: README.md and every docs/*.md. */
function docs(): string {
  const texts = [readFileSync(join(ROOT, 'README.md'), 'utf8')];
  const dir = join(ROOT, 'docs');
  if (existsSync(dir)) for (const f of readdirSync(dir).sort()) if (f.endsWith('.md')) texts.push(readFileSync(join(dir, f), 'utf8'));
  return texts.join('\n');
}

/** The names in backticks in the first cell of each table row (`| \`a\` / \`b\` | ... |`). */
function documentedNames(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const line of markdown.split('\n')) {
    const m = /^\|([^|]*)\|/.exec(line.trim());
    if (m === null) continue;
    for (const n of m[1].matchAll(/`([A-Za-z]+)`/g)) out.add(n[1]);
  }
  return out;
}

/** Every problem between the loader's actions, the table's groups and the docs. */
function stepTableProblems(loader: readonly string[], groups: Record<string, object>, documented: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const owner = new Map<string, string>();
  for (const [group, handlers] of Object.entries(groups)) {
    for (const action of Object.keys(handlers)) {
      const prev = owner.get(action);
      if (prev !== undefined) problems.push(`${action} has a handler in both ${prev} and ${group}`);
      owner.set(action, group);
    }
  }
  for (const a of loader) if (!owner.has(a)) problems.push(`${a} has a schema in the loader but no handler`);
  for (const a of owner.keys()) if (!loader.includes(a)) problems.push(`${a} has a handler but no schema in the loader`);
  for (const a of loader) if (!documented.has(a)) problems.push(`${a} is not documented in the scenario-format docs`);
  return problems;
}

describe('the timeline step table', () => {
  const loader = Object.keys(ACTIONS);

  it('has one handler per loader action, and documents every action', () => {
    expect(stepTableProblems(loader, STEP_GROUPS, documentedNames(docs()))).toEqual([]);
    expect(Object.keys(STEP_HANDLERS).sort()).toEqual([...loader].sort());
  });

  it('the check finds a missing handler, a stray handler, a duplicate and an undocumented action', () => {
    const noop = () => {};
    const problems = stepTableProblems(['a', 'b', 'c'], { x: { a: noop, z: noop }, y: { a: noop, c: noop } }, new Set(['a', 'z']));
    expect(problems).toEqual([
      'a has a handler in both x and y',
      'b has a schema in the loader but no handler',
      'z has a handler but no schema in the loader',
      'b is not documented in the scenario-format docs',
      'c is not documented in the scenario-format docs',
    ]);
    expect([...documentedNames('| `createMirror` / `deleteMirror` | `pod` | x |\n`exit` in prose\n| `oom` | y |')]).toEqual(['createMirror', 'deleteMirror', 'oom']);
  });
});
