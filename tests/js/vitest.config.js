import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['tests/js/**/*.test.js'], testTimeout: 120_000, hookTimeout: 120_000, fileParallelism: false },
});
