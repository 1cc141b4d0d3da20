import { parseYaml } from '/work/wt/loader/dist/scenario/yaml.js';
import { loadScenario } from '/work/wt/loader/dist/scenario/index.js';
const HEAD = 'apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: bad }\nspec:\n';
for (const n of [2000, 5000, 10000]) {
const text = HEAD + `  x-kss:\n${Array.from({ length: n }, (_, i) => `    k${i}: v`).join('\n')}\n  broken: [\n`;
let t = performance.now(); const y = parseYaml(text, 'x'); console.log(n, 'yaml', Math.round(performance.now()-t), y.ok ? 'ok' : y.issues.length);
}
