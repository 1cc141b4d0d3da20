// `kss fixes [--format table|json]`: the upstream fixes a scenario can take back out with
// `spec.kubelet.revertFixes`, and the fixes proposed upstream and never merged that it can put in
// with `spec.kubelet.proposedFixes` (the bug zoo, scenarios/zoo/), from the registry in
// model/fixes.ts.
import { FIXES, PROPOSED_FIXES, type FixInfo, type ProposedFixInfo } from '../model/fixes.js';
import { EXIT_PASS, type CliIO } from './io.js';

export interface FixesArgs {
  format: 'table' | 'json';
}

const prs = (f: { prs: readonly number[] }) => f.prs.map((n) => `#${n}`).join(' ');

/** Rows under a head, columns padded, each entry's place (and caveat) indented below it. */
function table(head: string[], rows: string[][], below: string[]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return [line(head), ...rows.flatMap((r, i) => [line(r), `${' '.repeat(widths[0] + 2)}${below[i]}`])];
}

const where = (f: { where: string; note?: string }) => `at: ${f.where}${f.note ? `; note: ${f.note}` : ''}`;

/** The registry as plain-text tables, one fix per line, its place and caveat indented below it:
 *  the merged fixes, then (when there are any) the proposed ones. */
export function fixesTable(fixes: readonly FixInfo[] = FIXES, proposed: readonly ProposedFixInfo[] = PROPOSED_FIXES): string {
  const out = table(
    ['NAME', 'PR', 'RELEASE', 'GENERATIONS', 'BUGS', 'REVERTING IT'],
    fixes.map((f) => [f.name, prs(f), f.release, f.generations.join(','), f.bugs.join(','), f.summary]),
    fixes.map(where),
  );
  if (proposed.length > 0) {
    out.push('', 'proposed upstream, never merged (spec.kubelet.proposedFixes puts them in):', '');
    out.push(...table(
      ['NAME', 'PR', 'GENERATIONS', 'BUGS', 'APPLYING IT'],
      proposed.map((f) => [f.name, prs(f), f.generations.join(','), f.bugs.join(','), f.summary]),
      proposed.map((f) => `${where(f)}; state: ${f.state}`),
    ));
  }
  return out.join('\n') + '\n';
}

export function fixesCommand(args: FixesArgs, io: CliIO): number {
  // json: one array, the merged fixes then the proposed ones, each with its kind
  const json = () => JSON.stringify([...FIXES.map((f) => ({ kind: 'merged', ...f })), ...PROPOSED_FIXES.map((f) => ({ kind: 'proposed', ...f }))], null, 2) + '\n';
  io.stdout(args.format === 'json' ? json() : fixesTable());
  return EXIT_PASS;
}
