import { podsScenario } from '/work/wt/loader/dist/bench/load.js';
import { Parser } from 'yaml';
for (const n of [5000, 10000, 20000]) {
const text = podsScenario(n);
let t=performance.now(); for (const x of new Parser().parse(text)); console.log(n, 'parse', Math.round(performance.now()-t));
}
const block = (n) => { const l=['spec:','  pods:']; for (let i=0;i<n;i++) l.push(`    - metadata:\n        name: pod-${i}\n      spec:\n        containers:\n          - name: main\n            image: busybox`); return l.join('\n'); };
for (const n of [5000, 10000, 20000]) { const text=block(n); let t=performance.now(); for (const x of new Parser().parse(text)); console.log(n, 'block parse', Math.round(performance.now()-t), text.length); }
