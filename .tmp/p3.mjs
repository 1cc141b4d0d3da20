import { podsScenario } from '/work/wt/loader/dist/bench/load.js';
import { Parser, Lexer } from 'yaml';
const text = podsScenario(10000);
for (let k=0;k<3;k++){
let t=performance.now(); let n=0; for (const x of new Lexer().lex(text)) n++; const tl=performance.now()-t;
t=performance.now(); for (const x of new Parser().parse(text)) n++; console.log('lex', Math.round(tl), 'lex+parse', Math.round(performance.now()-t));
}
const js = await import('/work/wt/loader/node_modules/yaml/package.json', {with:{type:'json'}}); console.log(js.default.version);
