#!/usr/bin/env node
// The kss command: the CLI from its bundle when the bundle is current (one file and its V8 code
// cache: bundle-loader.ts), else from the modules as tsc built them (entry.ts). KSS_NO_BUNDLE=1
// always takes the modules.
import { fileURLToPath } from 'node:url';
import { loadBundle } from './bundle-loader.js';

const bundled = process.env.KSS_NO_BUNDLE ? undefined : loadBundle(fileURLToPath(new URL('..', import.meta.url)));
if (bundled !== undefined) bundled.cli({ build: bundled.build });
else (await import('./entry.js')).cli();
