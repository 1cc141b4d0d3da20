import { Parser, Composer } from 'yaml';
const HEAD = 'apiVersion: kss/v1alpha1\nkind: Scenario\nmetadata: { name: bad }\nspec:\n';
for (const tail of ['', '  broken: [\n']) for (const n of [5000, 10000, 20000]) {
const text = HEAD + `  x-kss:\n${Array.from({ length: n }, (_, i) => `    k${i}: v`).join('\n')}\n` + tail;
let t = performance.now(); const toks=[...new Parser().parse(text)]; const tp=performance.now()-t;
t = performance.now(); const docs=[...new Composer().compose(toks)]; console.log(JSON.stringify(tail), n, 'parse', Math.round(tp), 'compose', Math.round(performance.now()-t));
}
