import { loadScenario } from '/work/wt/loader/dist/scenario/index.js';
const HEAD = 'apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: bad }\nspec:\n';
for (const n of [10000, 80000]) {
const text = HEAD + `  x-kss:\n${Array.from({ length: n }, (_, i) => `    k${i}: v`).join('\n')}\n`;
const c0=process.cpuUsage(); let t = performance.now(); const r = loadScenario(text); const c=process.cpuUsage(c0); console.log(n, 'keys', r.ok, Math.round(performance.now()-t), 'cpu', Math.round((c.user+c.system)/1000));
const bad = HEAD + Array.from({ length: n }, (_, i) => `  bad${i}: v`).join('\n') + '\n';
t = performance.now(); const r2 = loadScenario(bad); console.log(n, 'unknown keys', r2.ok, r2.issues?.length, Math.round(performance.now()-t));
}
