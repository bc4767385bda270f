import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['tests/e2e/**/*.test.js'], testTimeout: 180_000, hookTimeout: 120_000 },
});
