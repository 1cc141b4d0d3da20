import { podsScenario } from '/work/wt/loader/dist/bench/load.js';
import { Parser } from 'yaml';
for (const n of [5000, 10000, 20000, 40000]) { const text = podsScenario(n);
const c0=process.cpuUsage(); let t=performance.now(); for (const x of new Parser().parse(text)); const c=process.cpuUsage(c0); console.log(n, 'wall', Math.round(performance.now()-t), 'cpu', Math.round((c.user+c.system)/1000)); }
