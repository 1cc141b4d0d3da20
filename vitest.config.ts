import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    // a kss the tests spawn keeps its scenario cache out of the user's home
    env: { KSS_CACHE_DIR: join(tmpdir(), 'kss-test-cache') },
  },
});
