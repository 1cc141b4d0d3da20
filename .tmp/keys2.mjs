import { loadScenario } from '/work/wt/loader/dist/scenario/index.js';
const HEAD = 'apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: bad }\nspec:\n';
const n=40000; const bad = HEAD + Array.from({ length: n }, (_, i) => `  bad${i}: v`).join('\n') + '\n';
let t = performance.now(); const r2 = loadScenario(bad); console.log(n, 'unknown keys', Math.round(performance.now()-t));
