// A short soak in CI (tools/soak.js; docs/reliability.md has the 5,000-call run): every kind of
// call, repeated, gives the same result each time, and the WebAssembly memory stops growing after
// the first round.
import { expect, test } from 'vitest';
import { soak } from '../../tools/soak.js';
import { INT8_MODEL } from './paths.js';

test('1,000 calls of every kind: same results each time, memory flat after the first round', async () => {
  const report = await soak(INT8_MODEL, 1000);
  expect(report.calls).toBe(1000);
  expect(report.mismatches).toEqual([]);
  expect(report.memoryAfterWarmup).toBeGreaterThan(0);
  expect(report.memoryAtEnd).toBe(report.memoryAfterWarmup);
});
