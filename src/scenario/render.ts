// Issues rendered like a compiler's diagnostics, with the offending line and a caret underline.
// Plain text: colour, if any, is the caller's business. Whatever comes from the file is made safe
// for a terminal: control characters are shown escaped (\x1b, \t stays a tab), and a long line
// is cut to a window around the column; a long message is cut too.
import type { Issue } from './issues.js';

/** The widest part of a source line shown in a code frame. */
const FRAME_WIDTH = 160;
const MAX_MESSAGE = 2000;

/** Render issues; with the file's text, each gets a code frame. Issues are separated by a blank line. */
export function renderIssues(issues: readonly Issue[], sourceText?: string): string {
  const lineAt = sourceText === undefined ? undefined : lineReader(sourceText);
  return issues.map((i) => renderOne(i, lineAt)).join('\n\n');
}

/** The text of line n (1-based) without splitting the whole text (it may be large). */
function lineReader(text: string): (n: number) => string | undefined {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (n) => (n >= 1 && n <= starts.length ? text.slice(starts[n - 1], n < starts.length ? starts[n] - 1 : text.length).replace(/\r$/, '') : undefined);
}

/** Control characters (but tab) escaped, so the text cannot drive the terminal. */
export function safeText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function renderOne(i: Issue, lineAt: ((n: number) => string | undefined) | undefined): string {
  const where = i.line > 0 ? `${safeText(i.file)}:${i.line}:${i.col}` : safeText(i.file);
  const out = [`${where}: ${i.severity ?? 'error'} ${i.code}${i.path ? ` at ${safeText(clipText(i.path, 200))}` : ''}`];
  for (const l of clipText(i.message, MAX_MESSAGE).split('\n')) out.push(`  ${safeText(l)}`);
  const src = lineAt && i.line > 0 ? lineAt(i.line) : undefined;
  if (src !== undefined) {
    const num = String(i.line);
    const gutter = ' '.repeat(num.length);
    // A window of the line around the column, so a long line stays one screen line.
    const from = Math.max(0, i.col - 1 - FRAME_WIDTH / 2);
    const to = Math.min(src.length, from + FRAME_WIDTH);
    const head = safeText(src.slice(from, i.col - 1));
    const shown = (from > 0 ? '…' : '') + head + safeText(src.slice(i.col - 1, to)) + (to < src.length ? '…' : '');
    // Keep tabs in the padding so the carets line up under tab-indented text.
    const pad = ((from > 0 ? '…' : '') + head).replace(/[^\t]/g, ' ');
    const room = Math.max(1, to - (i.col - 1));
    const width = Math.min(room, Math.max(1, (i.endCol ?? i.col + 1) - i.col));
    out.push(`  ${num} | ${shown}`, `  ${gutter} | ${pad}${'^'.repeat(width)}`);
  }
  return out.join('\n');
}

function clipText(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}… (${s.length - max} more characters)` : s;
}
