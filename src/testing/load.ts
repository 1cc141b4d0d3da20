// Loading a scenario for a suite: by absolute path, with issues named and framed by the path the
// user sees.
import { readFileSync } from 'node:fs';
import { renderIssues, type LoadResult } from '../scenario/index.js';


const MAX_LINE = 240;
const MAX_LINES = 2000;

/** Text from a scenario, made safe to print: control characters (a terminal escape, a NUL) shown
 *  as `\xNN`, each line cut to 240 characters and the whole to 2000 lines, saying how much was
 *  left out, so a 50 MB value cannot flood a terminal, a CI log or a report. */
export function safeText(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (const raw of lines.slice(0, MAX_LINES)) {
    const l = raw.replace(/[\x00-\x08\x0b-\x1f\x7f\x9b]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
    out.push(l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}… (${l.length} characters)` : l);
  }
  if (lines.length > MAX_LINES) out.push(`… ${lines.length - MAX_LINES} more lines`);
  return out.join('\n');
}

/** The rendered issues of a failed load (or the warnings of one that loaded), naming the file as
 *  shown, with code frames. */
export function renderLoadIssues(load: LoadResult, abs: string, display: string): string {
  const issues = load.ok ? (load.warnings ?? []) : load.issues;
  let text: string | undefined;
  try {
    text = readFileSync(abs, 'utf8');
  } catch {
    text = undefined;
  }
  return safeText(
    renderIssues(
      issues.map((i) => ({ ...i, file: i.file === abs ? display : i.file, message: i.message.split(abs).join(display) })),
      text,
    ),
  );
}
