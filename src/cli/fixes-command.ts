// `kss fixes [--format table|json]`: the upstream fixes a scenario can take back out with
// `spec.kubelet.revertFixes` (the bug zoo, scenarios/zoo/), from the registry in model/fixes.ts.
import { FIXES, type FixInfo } from '../model/fixes.js';
import { EXIT_PASS, type CliIO } from './io.js';

export interface FixesArgs {
  format: 'table' | 'json';
}

const prs = (f: FixInfo) => f.prs.map((n) => `#${n}`).join(' ');

/** The registry as a plain-text table, one fix per line, its caveat indented below it. */
export function fixesTable(fixes: readonly FixInfo[] = FIXES): string {
  const rows = fixes.map((f) => [f.name, prs(f), f.release, f.generations.join(','), f.bugs.join(','), f.summary]);
  const head = ['NAME', 'PR', 'RELEASE', 'GENERATIONS', 'BUGS', 'REVERTING IT'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  const out = [line(head)];
  fixes.forEach((f, i) => {
    out.push(line(rows[i]));
    out.push(`${' '.repeat(widths[0] + 2)}at: ${f.where}${f.note ? `; note: ${f.note}` : ''}`);
  });
  return out.join('\n') + '\n';
}

export function fixesCommand(args: FixesArgs, io: CliIO): number {
  io.stdout(args.format === 'json' ? JSON.stringify(FIXES, null, 2) + '\n' : fixesTable());
  return EXIT_PASS;
}
