import { loadScenario } from '/work/wt/loader/dist/scenario/index.js';
import { podsScenario } from '/work/wt/loader/dist/bench/load.js';
const block = (n) => { const l=['apiVersion: kss/v1alpha1','kind: Scenario','metadata: { name: x }','spec:','  pods:']; for (let i=0;i<n;i++) l.push(`    - metadata:\n        name: pod-${i}\n      spec:\n        restartPolicy: Never\n        containers:\n          - name: main\n            image: busybox`); return l.join('\n')+'\n'; };
for (const [name, text] of [['block', block(10000)], ['flow', podsScenario(10000)]]) {
  for (let k=0;k<2;k++){ const t=performance.now(); const r=loadScenario(text); console.log(name, r.ok, Math.round(performance.now()-t), text.length); }
}
