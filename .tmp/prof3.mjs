import { loadScenario } from '/work/wt/loader/dist/scenario/index.js';
import { podsScenario } from '/work/wt/loader/dist/bench/load.js';
const text = podsScenario(10000);
const c0=process.cpuUsage(); let t=performance.now(); loadScenario(text); const c=process.cpuUsage(c0); console.log('load', Math.round(performance.now()-t), 'cpu', Math.round((c.user+c.system)/1000));
