// The published type declarations (dist/*.d.ts) compile in a user's strict TypeScript project.
import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { ROOT } from './paths.js';

test('a user of the package type-checks against dist/*.d.ts', () => {
  const tsc = spawnSync('node', [`${ROOT}node_modules/typescript/bin/tsc`, '-p', `${ROOT}tests/types/tsconfig.json`],
                        { encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
});
