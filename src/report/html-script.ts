// The HTML timeline's script, inlined into the page (plain browser JavaScript, no library, no
// network). It reads the data of html-data.ts from the page, draws swimlanes on a canvas, and on a
// click shows the state at that instant. `window.kssView` is its interface for tests.
// (Top-level functions, no wrapper: the page has no other script.)
export const HTML_SCRIPT = String.raw`
'use strict';
  var D = JSON.parse(document.getElementById('kss-data').textContent);
  var N = D.t.length, LANE_H = 34, PAD_L = 8, AXIS_H = 22;
  var canvas = document.getElementById('canvas'), ctx = canvas.getContext('2d');
  var podSel = document.getElementById('pod'), panel = document.getElementById('panel');
  var view = { t0: 0, t1: Math.max(D.meta.untilMs, D.t.length ? D.t[N - 1] : 1, 1) };
  var full = { t0: view.t0, t1: view.t1 };
  var podFilter = -1, selected = -1, shown = new Uint8Array(N);
  var used = [], laneRow = new Int32Array(D.lanes.length).fill(-1);
  var reqOfSend = {}, reqOfAnswer = {};
  D.req.forEach(function (q, k) { reqOfSend[q[0]] = k; if (q[1] >= 0) reqOfAnswer[q[1]] = k; });

  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; }); }
  function sec(t) { return (t / 1000).toFixed(3) + 's'; }
  function typeOf(i) { return D.types[D.ty[i]]; }
  function podOf(i) { return D.p[i] < 0 ? '' : D.pods[D.p[i]]; }
  function colorOfType(ty) {
    if (ty === 'invariant.violation') return '#d00000';
    if (ty === 'status.reject' || ty === 'status.drop' || ty === 'api.error') return '#e85d04';
    if (ty.indexOf('status.') === 0) return '#0f9b8e';
    if (ty === 'api.request') return '#1d4ed8';
    if (ty.indexOf('api.') === 0) return '#3a0ca3';
    if (ty.indexOf('runtime.') === 0) return '#9d4edd';
    if (ty.indexOf('fault.') === 0) return '#f59e0b';
    if (ty === 'step') return '#2b9348';
    return '#6b7280';
  }
  var TYPE_COLOR = D.types.map(colorOfType), VIOLATION = D.types.indexOf('invariant.violation');
  /** The records of each type, in time order (each drawn in one colour). */
  var byType = D.types.map(function () { return []; });
  for (var r0 = 0; r0 < N; r0++) byType[D.ty[r0]].push(r0);
  function firstAtOrAfter(list, t) {
    var lo = 0, hi = list.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (D.t[list[mid]] < t) lo = mid + 1; else hi = mid; }
    return lo;
  }


  function applyFilter() {
    var counts = new Array(D.lanes.length).fill(0);
    for (var i = 0; i < N; i++) {
      shown[i] = podFilter < 0 || D.p[i] < 0 || D.p[i] === podFilter ? 1 : 0;
      if (shown[i]) counts[D.l[i]]++;
    }
    var labels = document.getElementById('lanes');
    labels.innerHTML = '';
    used = [];
    for (var l = 0; l < D.lanes.length; l++) {
      laneRow[l] = -1;
      if (counts[l] === 0) continue;
      laneRow[l] = used.length;
      used.push(l);
      var div = document.createElement('div');
      div.className = 'lane-label';
      div.dataset.lane = D.lanes[l];
      div.dataset.count = String(counts[l]);
      div.style.height = LANE_H + 'px';
      div.innerHTML = esc(D.laneTitles[l]) + ' <span class="count">' + counts[l] + '</span>';
      labels.appendChild(div);
    }
    labels.style.paddingTop = AXIS_H + 'px';
    document.getElementById('count').textContent = counts.reduce(function (a, b) { return a + b; }, 0) + ' events';
    draw();
  }

  function x(t) { return PAD_L + (t - view.t0) / (view.t1 - view.t0) * (canvas.clientWidth - 2 * PAD_L); }
  function y(lane) { return AXIS_H + laneRow[lane] * LANE_H + LANE_H / 2; }

  function drawAxis(w) {
    ctx.fillStyle = '#374151'; ctx.font = '11px sans-serif'; ctx.textBaseline = 'middle';
    var span = view.t1 - view.t0, step = Math.pow(10, Math.floor(Math.log10(Math.max(span, 1) / 6)));
    if (span / step > 12) step *= 5; else if (span / step > 6) step *= 2;
    for (var t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step) {
      var px = x(t);
      ctx.fillRect(px, AXIS_H - 6, 1, 6);
      ctx.fillText(sec(t), px + 2, 8);
    }
    ctx.fillStyle = '#e5e7eb';
    for (var r = 0; r <= used.length; r++) ctx.fillRect(0, AXIS_H + r * LANE_H, w, 1);
  }

  function draw() {
    var w = canvas.clientWidth, h = AXIS_H + used.length * LANE_H + 2, dpr = window.devicePixelRatio || 1;
    canvas.style.height = h + 'px'; canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0); ctx.clearRect(0, 0, w, h);
    D.faults.forEach(function (f) {
      var a = x(D.t[f[0]]), b = f[1] >= 0 ? x(D.t[f[1]]) : w;
      ctx.fillStyle = 'rgba(245, 158, 11, 0.15)'; ctx.fillRect(a, AXIS_H, Math.max(b - a, 2), h - AXIS_H);
    });
    drawAxis(w);
    var k = (w - 2 * PAD_L) / (view.t1 - view.t0), lastPx = new Float64Array(D.lanes.length), ERR = D.types.indexOf('api.error');
    [false, true].forEach(function (errors) {
      ctx.fillStyle = errors ? 'rgba(232, 93, 4, 0.45)' : 'rgba(29, 78, 216, 0.3)';
      lastPx.fill(-1e9);
      D.req.forEach(function (q) {
        var s = q[0]; if (!shown[s] || laneRow[q[2]] < 0 || (q[1] >= 0 && D.ty[q[1]] === ERR) !== errors) return;
        var a = PAD_L + (D.t[s] - view.t0) * k, b = PAD_L + ((q[1] >= 0 ? D.t[q[1]] : view.t1) - view.t0) * k;
        if (b < 0 || a > w || b - lastPx[q[2]] < 1) return;
        lastPx[q[2]] = b;
        ctx.fillRect(a, y(q[2]) + 6, Math.max(b - a, 2), 5);
      });
    });
    for (var ti = 0; ti < byType.length; ti++) {
      var list = byType[ti], viol = ti === VIOLATION;
      ctx.fillStyle = TYPE_COLOR[ti];
      lastPx.fill(-1e9);
      for (var j = firstAtOrAfter(list, view.t0 - 4 / k); j < list.length; j++) {
        var i = list[j];
        if (!shown[i]) continue;
        var px = PAD_L + (D.t[i] - view.t0) * k;
        if (px > w + 4) break;
        if (!viol && px - lastPx[D.l[i]] < 1) continue; // (one mark per pixel and lane)
        lastPx[D.l[i]] = px;
        var py = y(D.l[i]);
        if (viol) { ctx.beginPath(); ctx.moveTo(px, py - 8); ctx.lineTo(px + 7, py); ctx.lineTo(px, py + 8); ctx.lineTo(px - 7, py); ctx.fill(); }
        else ctx.fillRect(px - 2, py - 7, 4, 10);
      }
    }
    if (selected >= 0 && shown[selected]) {
      ctx.strokeStyle = '#111827'; ctx.lineWidth = 2;
      ctx.strokeRect(x(D.t[selected]) - 5, y(D.l[selected]) - 10, 10, 16);
    }
    document.getElementById('window').textContent = sec(view.t0) + ' – ' + sec(view.t1);
  }

  /** The shown event nearest to (px, py) within 8 px, or -1. */
  function hit(px, py) {
    var row = Math.floor((py - AXIS_H) / LANE_H), lane = used[row];
    if (lane === undefined) return -1;
    var best = -1, bd = 9;
    for (var i = 0; i < N; i++) {
      if (!shown[i] || D.l[i] !== lane) continue;
      var d = Math.abs(x(D.t[i]) - px);
      if (d < bd) { bd = d; best = i; }
    }
    return best;
  }

  /** The state after record i: per pod, the cache entry, the version sent and the apiserver object. */
  function stateAt(i) {
    var st = {};
    for (var k = 0; k <= i; k++) {
      var us = D.u[k]; if (!us) continue;
      for (var j = 0; j < us.length; j++) {
        var u = us[j], s = st[u[0]] || (st[u[0]] = {});
        if (u[1] === 'c') s.cache = { v: u[2], w: u[3], f: u[4] };
        else if (u[1] === 'a') s.sent = u[2];
        else if (u[1] === 'd') { s.cache = null; s.sent = undefined; }
        else if (u[1] === 's') s.api = { rv: u[2], w: u[3], f: u[4], del: u[5] };
        else if (u[1] === 'r') (s.rt || (s.rt = {}))[u[2]] = u[3];
      }
    }
    return st;
  }

  function words(idx) { return idx >= 0 ? JSON.parse(D.s[idx]) : null; }

  function stateTable(pod, s) {
    var cw = s.cache ? words(s.cache.w) : null, aw = s.api && s.api.w >= 0 ? words(s.api.w) : null;
    var keys = [], cm = {}, am = {};
    (cw || []).forEach(function (p) { if (p[0] !== '+') { cm[p[0]] = p[1]; keys.push(p[0]); } });
    (aw || []).forEach(function (p) { if (p[0] !== '+') { am[p[0]] = p[1]; if (!(p[0] in cm)) keys.push(p[0]); } });
    var head = '<tr><th>' + esc(pod) + '</th><th>kubelet cache ' + (s.cache ? 'v' + s.cache.v : '(no entry)') +
      '</th><th>apiserver ' + (s.api ? (s.api.w < 0 ? 'removed at rv ' + s.api.rv : 'rv ' + s.api.rv) : '(not stored)') + '</th></tr>';
    var rows = keys.map(function (k) {
      var a = cm[k], b = am[k], diff = cw && aw && a !== b;
      return '<tr class="' + (diff ? 'diff' : '') + '" data-key="' + esc(k) + '"><td>' + esc(k) + '</td><td>' + esc(a === undefined ? '—' : a) + '</td><td>' + esc(b === undefined ? '—' : b) + '</td></tr>';
    }).join('');
    var extra = '<tr><td>apiStatusVersions</td><td colspan="2" class="asv">' + (s.sent === undefined ? 'nothing sent yet' : 'v' + s.sent + ' sent') +
      (s.cache && s.sent !== undefined && s.sent < s.cache.v ? ' (v' + s.cache.v + ' not sent yet)' : '') + '</td></tr>';
    if (s.rt) extra += '<tr class="runtime"><td>runtime</td><td colspan="2">' + Object.keys(s.rt).map(function (c) { return esc(c + ': ' + s.rt[c]); }).join(', ') + '</td></tr>';
    if (s.api && s.api.del) extra += '<tr><td>deletionTimestamp</td><td colspan="2">' + esc(s.api.del) + '</td></tr>';
    var det = '';
    if (s.cache && s.cache.f >= 0) det += '<details><summary>cached status (JSON)</summary><pre>' + esc(D.s[s.cache.f]) + '</pre></details>';
    if (s.api && s.api.f >= 0) det += '<details><summary>apiserver status (JSON)</summary><pre>' + esc(D.s[s.api.f]) + '</pre></details>';
    return '<table class="state" data-pod="' + esc(pod) + '">' + head + rows + extra + '</table>' + det;
  }

  function inFlight(i, pod) {
    var out = [];
    D.req.forEach(function (q) {
      if (q[0] <= i && (q[1] < 0 || q[1] > i) && (pod < 0 || D.p[q[0]] === pod)) out.push('<li>' + esc(D.s[D.lb[q[0]]]) + ' <small>sent ' + sec(D.t[q[0]]) + '</small></li>');
    });
    return out;
  }

  function faultsAt(i) {
    var out = [];
    D.faults.forEach(function (f) { if (f[0] <= i && (f[1] < 0 || f[1] > i)) out.push('<li>' + esc(D.s[f[2]]) + ' <small>since ' + sec(D.t[f[0]]) + '</small></li>'); });
    return out;
  }

  function select(i) {
    selected = i;
    draw();
    if (i < 0) { panel.hidden = true; return; }
    var pod = D.p[i], st = stateAt(i), html = [];
    html.push('<h2><span class="t">' + sec(D.t[i]) + '</span> ' + esc(D.laneTitles[D.l[i]]) + ' · <code>' + esc(typeOf(i)) + '</code></h2>');
    html.push('<p class="label">' + esc(D.s[D.lb[i]]) + '</p>');
    if (D.why[i] !== undefined) html.push('<div class="violation"><b>Invariant violated.</b> ' + esc(D.s[D.why[i]]) + '</div>');
    var same = [];
    for (var k = 0; k < N; k++) if (D.t[k] === D.t[i] && D.l[k] === D.l[i] && shown[k]) same.push(k);
    if (same.length > 1) html.push('<details class="same" open><summary>' + same.length + ' events at this instant in this lane</summary><ol>' + same.map(function (k) {
      return '<li><a href="#" data-event="' + k + '"' + (k === i ? ' class="cur"' : '') + '>' + esc(typeOf(k)) + ' ' + esc(D.s[D.lb[k]]) + '</a></li>';
    }).join('') + '</ol></details>');
    html.push('<h3>State after this event</h3>');
    var pods = pod >= 0 ? [pod] : Object.keys(st).map(Number).slice(0, 20);
    if (pods.length === 0) html.push('<p>No pod state yet.</p>');
    pods.forEach(function (p) { html.push(stateTable(D.pods[p], st[p] || {})); });
    var fl = inFlight(i, pod);
    html.push('<h3>Requests in flight</h3>' + (fl.length ? '<ul class="inflight">' + fl.join('') + '</ul>' : '<p class="inflight">none</p>'));
    var fs = faultsAt(i);
    html.push('<h3>Faults in force</h3>' + (fs.length ? '<ul class="faults">' + fs.join('') + '</ul>' : '<p class="faults">none</p>'));
    panel.innerHTML = html.join('');
    panel.hidden = false;
    panel.dataset.event = String(i);
  }

  panel.addEventListener('click', function (e) {
    var a = e.target.closest('a[data-event]');
    if (a) { e.preventDefault(); select(Number(a.dataset.event)); }
  });

  function zoom(factor, atPx) {
    var w = canvas.clientWidth, at = atPx === undefined ? w / 2 : atPx;
    var tAt = view.t0 + (at - PAD_L) / (w - 2 * PAD_L) * (view.t1 - view.t0);
    var span = Math.max((view.t1 - view.t0) * factor, 1);
    span = Math.min(span, full.t1 - full.t0);
    view.t0 = Math.max(full.t0, tAt - (tAt - view.t0) * span / (view.t1 - view.t0));
    view.t1 = Math.min(full.t1, view.t0 + span);
    view.t0 = Math.max(full.t0, view.t1 - span);
    draw();
  }

  canvas.addEventListener('wheel', function (e) { e.preventDefault(); zoom(e.deltaY > 0 ? 1.25 : 0.8, e.offsetX); }, { passive: false });
  var drag = null;
  canvas.addEventListener('mousedown', function (e) { drag = { x: e.clientX, t0: view.t0, t1: view.t1, moved: false }; });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x; if (Math.abs(dx) > 3) drag.moved = true;
    if (!drag.moved) return;
    var dt = -dx / (canvas.clientWidth - 2 * PAD_L) * (drag.t1 - drag.t0);
    dt = Math.max(full.t0 - drag.t0, Math.min(full.t1 - drag.t1, dt));
    view.t0 = drag.t0 + dt; view.t1 = drag.t1 + dt; draw();
  });
  window.addEventListener('mouseup', function (e) {
    if (drag && !drag.moved && e.target === canvas) { var r = canvas.getBoundingClientRect(); select(hit(e.clientX - r.left, e.clientY - r.top)); }
    drag = null;
  });
  document.getElementById('zoom-in').onclick = function () { zoom(0.5); };
  document.getElementById('zoom-out').onclick = function () { zoom(2); };
  document.getElementById('zoom-reset').onclick = function () { view.t0 = full.t0; view.t1 = full.t1; draw(); };
  podSel.innerHTML = '<option value="-1">all pods (' + D.pods.length + ')</option>' + D.pods.map(function (p, k) { return '<option value="' + k + '">' + esc(p) + '</option>'; }).join('');
  podSel.onchange = function () { podFilter = Number(podSel.value); if (selected >= 0 && !shown[selected]) select(-1); applyFilter(); };
  window.addEventListener('resize', draw);
  document.getElementById('notes').innerHTML = D.notes.map(function (n) { return '<li>' + esc(D.s[n]) + '</li>'; }).join('');

  if (D.meta.pod !== undefined && D.pods.indexOf(D.meta.pod) >= 0) { podSel.value = String(D.pods.indexOf(D.meta.pod)); podFilter = Number(podSel.value); }
  applyFilter();
  window.kssView = {
    data: D, select: select, zoom: zoom,
    setPod: function (name) { podSel.value = String(D.pods.indexOf(name)); podSel.onchange(); },
    setWindow: function (t0, t1) { view.t0 = t0; view.t1 = t1; draw(); },
    /** Where record i is drawn, in page coordinates (for a test's click). */
    eventXY: function (i) { var r = canvas.getBoundingClientRect(); return { x: r.left + x(D.t[i]), y: r.top + y(D.l[i]) }; },
    shownCount: function () { var n = 0; for (var i = 0; i < N; i++) n += shown[i]; return n; },
    ready: true,
  };
`;
