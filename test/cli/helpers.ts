// Shared helpers of the CLI tests: run main() in-process, copy fixtures to a scratch folder, and
// a minimal XML parser (no dependency) to check that reports are well-formed.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { main } from '../../src/cli/main.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = join(REPO, 'test/fixtures/cli');

export interface Ran {
  code: number;
  out: string;
  err: string;
}

export async function kss(argv: string[], cwd: string): Promise<Ran> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), color: false, cwd });
  return { code, out, err };
}

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** A fresh scratch folder holding copies of the named fixture folders (test/fixtures/cli/<name>). */
export function scratchWith(...names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'kss-cli-'));
  scratch.push(dir);
  for (const n of names) cpSync(join(FIXTURES, n), join(dir, n), { recursive: true });
  return dir;
}

/** The last non-empty line of a text. */
export function lastLine(s: string): string {
  const lines = s.split('\n').filter((l) => l !== '');
  return lines[lines.length - 1] ?? '';
}

// ---- a minimal XML 1.0 parser: elements, attributes, text, entity and character references,
// comments, the XML declaration. Throws on anything not well-formed. ----------------------------

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

function isNameStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === ':' || c > '\u007f';
}
function isNameChar(c: string): boolean {
  return isNameStart(c) || (c >= '0' && c <= '9') || c === '-' || c === '.';
}
function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}
function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

export function parseXml(src: string): XmlElement {
  let i = 0;
  const fail = (msg: string): never => {
    const line = src.slice(0, i).split('\n').length;
    throw new Error(`XML not well-formed at line ${line} (offset ${i}): ${msg}`);
  };
  for (const ch of src) if (!isXmlChar(ch.codePointAt(0)!)) fail(`character U+${ch.codePointAt(0)!.toString(16)} is not allowed in XML`);
  const skipSpace = () => {
    while (i < src.length && isSpace(src[i])) i++;
  };
  const name = (): string => {
    if (!isNameStart(src[i] ?? '')) fail(`expected a name, got ${JSON.stringify(src[i])}`);
    const s = i;
    while (i < src.length && isNameChar(src[i])) i++;
    return src.slice(s, i);
  };
  const reference = (): string => {
    // at '&'
    const end = src.indexOf(';', i);
    if (end < 0 || end - i > 12) fail('unterminated reference');
    const body = src.slice(i + 1, end);
    i = end + 1;
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (body in named) return named[body];
    if (body.startsWith('#x')) {
      const n = parseInt(body.slice(2), 16);
      if (!Number.isFinite(n) || !isXmlChar(n)) fail(`bad character reference &${body};`);
      return String.fromCodePoint(n);
    }
    if (body.startsWith('#')) {
      const n = parseInt(body.slice(1), 10);
      if (!Number.isFinite(n) || !isXmlChar(n)) fail(`bad character reference &${body};`);
      return String.fromCodePoint(n);
    }
    return fail(`unknown entity &${body};`);
  };
  const misc = () => {
    for (;;) {
      skipSpace();
      if (src.startsWith('<!--', i)) {
        const end = src.indexOf('-->', i + 4);
        if (end < 0) fail('unterminated comment');
        i = end + 3;
      } else if (src.startsWith('<?', i)) {
        const end = src.indexOf('?>', i + 2);
        if (end < 0) fail('unterminated processing instruction');
        i = end + 2;
      } else return;
    }
  };
  const element = (): XmlElement => {
    if (src[i] !== '<') fail('expected <');
    i++;
    const el: XmlElement = { name: name(), attrs: {}, children: [], text: '' };
    for (;;) {
      const hadSpace = i < src.length && isSpace(src[i]);
      skipSpace();
      if (src.startsWith('/>', i)) {
        i += 2;
        return el;
      }
      if (src[i] === '>') {
        i++;
        break;
      }
      if (!hadSpace) fail('expected white space before an attribute');
      const an = name();
      skipSpace();
      if (src[i] !== '=') fail('expected =');
      i++;
      skipSpace();
      const q = src[i];
      if (q !== '"' && q !== "'") fail('expected a quoted attribute value');
      i++;
      let v = '';
      while (src[i] !== q) {
        if (i >= src.length) fail('unterminated attribute value');
        if (src[i] === '<') fail('< in an attribute value');
        if (src[i] === '&') v += reference();
        else v += src[i++];
      }
      i++;
      if (an in el.attrs) fail(`duplicate attribute ${an}`);
      el.attrs[an] = v;
    }
    for (;;) {
      if (i >= src.length) fail(`unclosed <${el.name}>`);
      if (src.startsWith('</', i)) {
        i += 2;
        const closing = name();
        if (closing !== el.name) fail(`</${closing}> closes <${el.name}>`);
        skipSpace();
        if (src[i] !== '>') fail('expected >');
        i++;
        return el;
      }
      if (src.startsWith('<!--', i)) {
        const end = src.indexOf('-->', i + 4);
        if (end < 0) fail('unterminated comment');
        i = end + 3;
      } else if (src.startsWith('<![CDATA[', i)) {
        const end = src.indexOf(']]>', i);
        if (end < 0) fail('unterminated CDATA');
        el.text += src.slice(i + 9, end);
        i = end + 3;
      } else if (src[i] === '<') el.children.push(element());
      else if (src[i] === '&') el.text += reference();
      else {
        if (src.startsWith(']]>', i)) fail(']]> in text');
        el.text += src[i++];
      }
    }
  };
  if (src.charCodeAt(0) === 0xfeff) i++;
  misc();
  const root = element();
  misc();
  if (i !== src.length) fail('content after the root element');
  return root;
}

export function descendants(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    out.push(...descendants(c, name));
  }
  return out;
}
