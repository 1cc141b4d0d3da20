// Loading a scenario for a suite: by absolute path, with issues named and framed by the path the
// user sees.
import { readFileSync } from 'node:fs';
import { renderIssues, type LoadResult } from '../scenario/index.js';


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
  return renderIssues(
    issues.map((i) => ({ ...i, file: i.file === abs ? display : i.file, message: i.message.split(abs).join(display) })),
    text,
  );
}
