// `kss run --html FILE`: one self-contained HTML file (inline data, script and styles; nothing is
// fetched, it opens from disk): swimlanes per actor over virtual time, a pod filter, zoom, and on a
// click the state at that instant (html-script.ts). Reads trace records only.
import { HTML_SCRIPT } from './html-script.js';
import { htmlData, scriptJson, type HtmlSource } from './html-data.js';

const STYLE = `
:root { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 14px; color: #111827; }
body { margin: 0; }
header { padding: 10px 16px; background: #f3f4f6; border-bottom: 1px solid #d1d5db; }
header h1 { font-size: 17px; margin: 0 0 4px; }
header .meta span { margin-right: 14px; }
.pass { color: #15803d; font-weight: bold; } .fail { color: #b91c1c; font-weight: bold; }
#notes { color: #b91c1c; margin: 6px 0 0; }
.controls { padding: 8px 16px; display: flex; gap: 10px; align-items: center; border-bottom: 1px solid #e5e7eb; }
.controls button { padding: 2px 10px; }
#main { display: flex; }
#lanes { flex: 0 0 260px; white-space: nowrap; border-right: 1px solid #d1d5db; }
.lane-label { display: flex; align-items: center; justify-content: space-between; padding: 0 8px; box-sizing: border-box; border-bottom: 1px solid #e5e7eb; font-weight: 600; }
.lane-label .count { color: #6b7280; font-weight: normal; font-size: 12px; }
#track { flex: 1 1 auto; min-width: 0; }
#canvas { width: 100%; display: block; cursor: crosshair; }
#panel { margin: 12px 16px; padding: 10px 14px; border: 1px solid #d1d5db; border-radius: 6px; background: #fafafa; max-width: 1100px; }
#panel h2 { font-size: 15px; margin: 0 0 6px; } #panel h3 { font-size: 13px; margin: 12px 0 4px; }
#panel .t { color: #1d4ed8; }
.violation { background: #fee2e2; border: 1px solid #ef4444; padding: 6px 10px; border-radius: 4px; }
table.state { border-collapse: collapse; margin: 6px 0; }
table.state th, table.state td { border: 1px solid #d1d5db; padding: 2px 8px; text-align: left; font-size: 13px; }
table.state tr.diff td { background: #fef3c7; font-weight: 600; }
pre { max-height: 300px; overflow: auto; background: #fff; border: 1px solid #e5e7eb; padding: 6px; font-size: 12px; }
.same a.cur { font-weight: bold; }
.legend span { display: inline-block; margin-right: 10px; font-size: 12px; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 3px; vertical-align: middle; }
`;

const LEGEND: Array<[string, string]> = [
  ['#0f9b8e', 'status manager decision'], ['#1d4ed8', 'request sent (bar: until answered)'], ['#3a0ca3', 'apiserver answer / write / watch'],
  ['#e85d04', 'error, reject, drop'], ['#9d4edd', 'runtime'], ['#2b9348', 'timeline step'], ['#d00000', 'invariant violation'], ['#f59e0b', 'fault in force (shaded)'],
];

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** The whole page, as one string. */
export function htmlPage(src: HtmlSource): string {
  const data = htmlData(src);
  const verdict = src.verdict === undefined ? '' : `<span class="${src.verdict}">${src.verdict.toUpperCase()}</span>`;
  const legend = LEGEND.map(([c, t]) => `<span><i style="background:${c}"></i>${esc(t)}</span>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>kss · ${esc(src.scenario)} (seed ${src.seed}, ${esc(src.variant)})</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>kss · ${esc(src.scenario)}</h1>
<div class="meta"><span>seed ${src.seed}</span><span>${esc(src.variant)}</span><span>${(src.untilMs / 1000).toFixed(3)}s virtual</span><span id="count"></span>${verdict}</div>
<ul id="notes"></ul>
<div class="legend">${legend}</div>
</header>
<div class="controls">
<label>pod <select id="pod"></select></label>
<button id="zoom-in" title="zoom in">+</button><button id="zoom-out" title="zoom out">−</button><button id="zoom-reset">whole run</button>
<span id="window"></span><small>wheel: zoom · drag: pan · click an event: the state at that instant</small>
</div>
<div id="main"><div id="lanes"></div><div id="track"><canvas id="canvas"></canvas></div></div>
<section id="panel" hidden></section>
<script type="application/json" id="kss-data">${scriptJson(data)}</script>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}
