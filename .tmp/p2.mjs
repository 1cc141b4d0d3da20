import { podsScenario } from '/work/wt/loader/dist/bench/load.js';
import { parseDocument, LineCounter, Parser, Composer } from 'yaml';
for (const n of [2000, 5000, 10000]) {
const text = podsScenario(n);
let t=performance.now(); const toks=[...new Parser().parse(text)]; const tp=performance.now()-t;
t=performance.now(); const doc=parseDocument(text); console.log(n, 'parse', Math.round(performance.now()-t), 'cst', Math.round(tp));
}
const block = ['a:'];
for (let i=0;i<10000;i++) block.push(`  - metadata:\n      name: pod-${i}\n    spec:\n      containers:\n        - name: main`);
let t=performance.now(); parseDocument(block.join('\n')); console.log('block 10k', performance.now()-t);
