import { podsScenario } from '/work/wt/loader/dist/bench/load.js';
import { Lexer } from 'yaml';
for (const n of [10000, 40000]) { const text = podsScenario(n);
let t=performance.now(); let c=0; for (const x of new Lexer().lex(text)) c++; console.log(n, 'lex', Math.round(performance.now()-t), c); }
