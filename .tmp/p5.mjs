import { podsScenario } from '/work/wt/loader/dist/bench/load.js';
import { Parser } from 'yaml';
const text = podsScenario(20000);
let t=performance.now(); for (const x of new Parser().parse(text)); console.log('parse', Math.round(performance.now()-t));
