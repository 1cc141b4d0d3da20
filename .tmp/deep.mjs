import { Parser, Composer, LineCounter } from 'yaml';
for (const [name, text] of [['flow', 'a: ' + '['.repeat(10000) + ']'.repeat(10000)], ['compact', 'a:\n' + '- '.repeat(10000) + 'x'], ['block', Array.from({length:3000},(_, i)=>' '.repeat(i)+'k:').join('\n')]]) {
  try { const toks=[...new Parser().parse(text)]; console.log(name, 'cst ok', toks.length);
    try { const docs=[...new Composer().compose(toks, true, text.length)]; console.log(name,'compose ok'); } catch(e){ console.log(name,'compose', e.message); }
  } catch (e) { console.log(name, 'cst', e.message); }
}
