import { readFileSync } from 'node:fs';
import { discoverScenarios } from '/work/wt/loader/dist/testing/index.js';
process.chdir('/work/wt/loader');
const files = discoverScenarios(['scenarios'], process.cwd()).files.map((f) => f.display);
console.log(files[112]);
