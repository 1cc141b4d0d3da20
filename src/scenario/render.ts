// Issues rendered like a compiler's diagnostics, with the offending line and a caret underline.
// Plain text: colour, if any, is the caller's business.
import type { Issue } from './issues.js';

/** Render issues; with the file's text, each gets a code frame. Issues are separated by a blank line. */
export function renderIssues(issues: readonly Issue[], sourceText?: string): string {
  const lines = sourceText?.split(/\r?\n/);
  return issues.map((i) => renderOne(i, lines)).join('\n\n');
}

function renderOne(i: Issue, lines: string[] | undefined): string {
  const where = i.line > 0 ? `${i.file}:${i.line}:${i.col}` : i.file;
  const out = [`${where}: ${i.severity ?? 'error'} ${i.code}${i.path ? ` at ${i.path}` : ''}`];
  for (const l of i.message.split('\n')) out.push(`  ${l}`);
  const src = lines && i.line > 0 ? lines[i.line - 1] : undefined;
  if (src !== undefined) {
    const num = String(i.line);
    const gutter = ' '.repeat(num.length);
    // Keep tabs in the padding so the carets line up under tab-indented text.
    const pad = src.slice(0, i.col - 1).replace(/[^\t]/g, ' ');
    const room = Math.max(1, src.length - (i.col - 1));
    const width = Math.min(room, Math.max(1, (i.endCol ?? i.col + 1) - i.col));
    out.push(`  ${num} | ${src}`, `  ${gutter} | ${pad}${'^'.repeat(width)}`);
  }
  return out.join('\n');
}
