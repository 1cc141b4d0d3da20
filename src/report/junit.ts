// JUnit XML, in the dialect GitHub Actions reporters, GitLab and Jenkins all read:
//
// <?xml version="1.0" encoding="UTF-8"?>
// <testsuites name tests failures errors skipped time>
//   <testsuite name tests failures errors skipped time>
//     <testcase classname name time file>
//       <failure message type>details</failure>   or   <skipped message/>
//       <system-out>notes</system-out>
//     </testcase>
//   </testsuite>
// </testsuites>
//
// Every attribute and text is XML-escaped, and characters XML 1.0 forbids (control characters,
// lone surrogates) are replaced, so the file always parses.

export interface JUnitCase {
  classname: string;
  name: string;
  timeMs: number;
  /** Path of the source file (GitLab and most GitHub reporters link it). */
  file?: string;
  failure?: { message: string; type?: string; body?: string };
  skipped?: string;
  systemOut?: string;
}

export interface JUnitSuite {
  name: string;
  timeMs: number;
  cases: JUnitCase[];
}

/** Replace what XML 1.0 cannot carry at all (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/F). */
export function xmlSafe(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i] + s[i + 1];
        i++;
        continue;
      }
    }
    const bad = (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0xd800 && c <= 0xdfff) || c === 0xfffe || c === 0xffff;
    out += bad ? `\\u${c.toString(16).padStart(4, '0')}` : s[i];
  }
  return out;
}

/** Escape for text and attribute values (both quotes escaped, so any attribute quoting works). */
export function xmlEscape(s: string): string {
  return xmlSafe(s).replace(/[&<>"']/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch === '"' ? '&quot;' : '&apos;'));
}

/** Attribute values: also keep line breaks and tabs, which attribute normalization would fold. */
function attr(s: string): string {
  return xmlEscape(s).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

function secs(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

export function* junitXml(suites: readonly JUnitSuite[], name = 'kss'): Generator<string> {
  const count = (s: JUnitSuite) => ({
    tests: s.cases.length,
    failures: s.cases.filter((c) => c.failure !== undefined).length,
    skipped: s.cases.filter((c) => c.failure === undefined && c.skipped !== undefined).length,
  });
  const totals = suites.map(count).reduce((a, b) => ({ tests: a.tests + b.tests, failures: a.failures + b.failures, skipped: a.skipped + b.skipped }), { tests: 0, failures: 0, skipped: 0 });
  const totalMs = suites.reduce((a, s) => a + s.timeMs, 0);
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<testsuites name="${attr(name)}" tests="${totals.tests}" failures="${totals.failures}" errors="0" skipped="${totals.skipped}" time="${secs(totalMs)}">\n`;
  for (const s of suites) {
    const c = count(s);
    yield `  <testsuite name="${attr(s.name)}" tests="${c.tests}" failures="${c.failures}" errors="0" skipped="${c.skipped}" time="${secs(s.timeMs)}">\n`;
    for (const tc of s.cases) {
      const head = `    <testcase classname="${attr(tc.classname)}" name="${attr(tc.name)}" time="${secs(tc.timeMs)}"${tc.file !== undefined ? ` file="${attr(tc.file)}"` : ''}`;
      const inner: string[] = [];
      if (tc.failure !== undefined) {
        const type = tc.failure.type !== undefined ? ` type="${attr(tc.failure.type)}"` : '';
        inner.push(`      <failure message="${attr(tc.failure.message)}"${type}>${xmlEscape(tc.failure.body ?? tc.failure.message)}</failure>\n`);
      } else if (tc.skipped !== undefined) {
        inner.push(`      <skipped message="${attr(tc.skipped)}"/>\n`);
      }
      if (tc.systemOut !== undefined && tc.systemOut !== '') inner.push(`      <system-out>${xmlEscape(tc.systemOut)}</system-out>\n`);
      if (inner.length === 0) yield `${head}/>\n`;
      else {
        yield `${head}>\n`;
        yield* inner;
        yield '    </testcase>\n';
      }
    }
    yield '  </testsuite>\n';
  }
  yield '</testsuites>\n';
}
