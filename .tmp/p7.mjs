import { podsScenario } from '/work/wt/loader/dist/bench/load.js';
import { Parser } from 'yaml';
const n = Number(process.argv[2]);
const text = podsScenario(n);
let t=performance.now(); let c=0; for (const x of new Parser().parse(text)) c++; console.log(n, 'parse retained', Math.round(performance.now()-t));
t=performance.now(); const p = new Parser(); let m=0; for (const x of p.parse(text)) { m++; } console.log(n, 'again', Math.round(performance.now()-t));
