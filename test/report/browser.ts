// A headless Chromium for the browser tests: Debian's `chromium` (or KSS_CHROMIUM), driven by
// playwright-core with the system executable (playwright-core never downloads a browser).
// With CI set, a browser that cannot be started fails the tests; locally it says how to get one.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

export const INSTALL_HINT = 'no headless browser: install Debian\'s chromium (apt-get update && apt-get install -y chromium) or set KSS_CHROMIUM to a Chrome/Chromium executable';

export function browserPath(): string | undefined {
  const env = process.env.KSS_CHROMIUM;
  if (env !== undefined && env !== '') return env;
  return CANDIDATES.find((p) => existsSync(p));
}

/** The browser, or an error message (the caller fails under CI, says it and skips otherwise). */
export async function startBrowser(): Promise<Browser | string> {
  const path = browserPath();
  if (path === undefined) return INSTALL_HINT;
  try {
    return await chromium.launch({ executablePath: path, args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'] });
  } catch (err) {
    return `could not start ${path}: ${(err as Error).message.split('\n')[0]} (${INSTALL_HINT})`;
  }
}

export const IN_CI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
