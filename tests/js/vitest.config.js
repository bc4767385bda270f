import { defineConfig } from 'vitest/config';

// Two test files at a time, each in a process of its own: most hold one core busy, and CI has two
// (2026-11-28, 2 cores: the whole suite 4 min 43 s, against about 7 min 30 s one file at a time).
// The fixtures several files share are made under a lock (tools/opus-mt-fixtures.py,
// tests/js/fixtures/marian-models.sh). tools/dev.sh runs dev-serve.test.js, whose bar is a time,
// on its own after the others.
export default defineConfig({
  test: {
    include: ['tests/js/**/*.test.js'], testTimeout: 120_000, hookTimeout: 120_000,
    pool: 'forks', fileParallelism: true, maxWorkers: 2, minWorkers: 1,
  },
});
