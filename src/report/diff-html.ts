// `kss diff --format html`: the two runs side by side as one self-contained page (no script, no
// network): the first divergence, the aligned timelines (a row per step; what only one side did is
// highlighted) and the final states. Reads the diff of diff-view.ts.
import { finalStates, type DiffSide, type Row } from './diff-view.js';

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

const STYLE = `body{font-family:system-ui,sans-serif;font-size:13px;margin:16px;color:#111827}
h1{font-size:17px}.first{background:#fef3c7;border:1px solid #f59e0b;padding:8px 12px;border-radius:4px}
table{border-collapse:collapse;width:100%;margin:10px 0}td,th{border:1px solid #e5e7eb;padding:2px 6px;vertical-align:top;text-align:left}
td.t{color:#1d4ed8;white-space:nowrap;width:70px}tr.only-a td.a,tr.only-b td.b{background:#fee2e2}tr.first-row{outline:2px solid #f59e0b}
tr.differs td{background:#fef3c7}`;

function cell(e: Row['a']): string {
  return e === undefined ? '<td class="t"></td><td></td>' : `<td class="t">${(e.r.t / 1000).toFixed(3)}s</td><td>${esc(e.text)}</td>`;
}

export function diffHtml(a: DiffSide, b: DiffSide, rows: readonly Row[], first: string | undefined): string {
  const k = rows.findIndex((r) => r.op !== '=');
  const body = rows.map((r, i) => {
    const cls = [r.op === '<' ? 'only-a' : r.op === '>' ? 'only-b' : '', i === k ? 'first-row' : ''].filter(Boolean).join(' ');
    return `<tr class="${cls}" data-op="${r.op === '=' ? 'same' : r.op === '<' ? 'a' : 'b'}">${cell(r.a).replace('<td>', '<td class="a">')}${cell(r.b).replace('<td>', '<td class="b">')}</tr>`;
  });
  const fa = finalStates(a.trace);
  const fb = finalStates(b.trace);
  const finals = [...new Set([...fa.keys(), ...fb.keys()])].sort().flatMap((pod) =>
    (['api', 'cache'] as const).map((w) => {
      const x = fa.get(pod)?.[w] ?? '(none)';
      const y = fb.get(pod)?.[w] ?? '(none)';
      return `<tr class="${x === y ? '' : 'differs'}"><th>${esc(pod)} ${w === 'api' ? 'apiserver' : 'kubelet cache'}</th><td>${esc(x)}</td><td>${esc(y)}</td></tr>`;
    }),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>kss diff · ${esc(a.label)} vs ${esc(b.label)}</title><style>${STYLE}</style></head>
<body><h1>kss diff · ${esc(a.label)} vs ${esc(b.label)}</h1>
<p class="first">${first === undefined ? 'The two runs did the same (decisions, requests, writes, containers).' : 'First divergence: ' + esc(first) + '.'}</p>
<table class="aligned"><tr><th colspan="2">${esc(a.label)}</th><th colspan="2">${esc(b.label)}</th></tr>
${body.join('\n')}
</table>
<h2>Final states</h2>
<table class="final"><tr><th></th><th>${esc(a.label)}</th><th>${esc(b.label)}</th></tr>
${finals.join('\n')}
</table></body></html>
`;
}
