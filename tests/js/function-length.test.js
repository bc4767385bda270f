// The function-length check (tools/function-length): each language's scanner finds each function's
// first and last line, and the command exits 1 exactly when one is over the limit.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { cppFunctions } from '../../tools/function-length/cpp.js';
import { allFunctions } from '../../tools/function-length/index.js';
import { shellFunctions } from '../../tools/function-length/shell.js';
import { typescriptFunctions } from '../../tools/function-length/typescript.js';
import { ROOT } from './paths.js';

const spans = (functions) => functions.map(({ name, start, end }) => [name, start, end]);

test('C++: braces inside comments, strings, raw strings, characters and directives do not count', () => {
  const source = [
    '#define OPEN {',                                      // 1
    'namespace crossattn {',                               // 2
    'int f(int x) {  // }',                                // 3
    '  const char* s = "}{\\"}";',                         // 4
    "  char c = '}'; int n = 1'000;",                      // 5
    '  auto raw = R"x(})" })x";',                          // 6
    '  /* } */ auto g = [&](int y) { return y; };',        // 7
    '  if (x) { return g(x); }',                           // 8
    '  return 0;',                                         // 9
    '}',                                                   // 10
    'const int table[] = {1, 2};',                         // 11
    'enum class E { kA, kB };',                            // 12
    'class Job {',                                         // 13
    ' public:',                                            // 14
    '  explicit Job(int n) : n_{n}, m_(n) {}',             // 15
    '  int n() const { return n_; }',                      // 16
    ' private:',                                           // 17
    '  int n_, m_;',                                       // 18
    '};',                                                  // 19
    '}  // namespace crossattn',                           // 20
    'EMSCRIPTEN_BINDINGS(crossattn) {',                    // 21
    '  function("f", &crossattn::f);',                     // 22
    '}',                                                   // 23
  ].join('\n');
  expect(spans(cppFunctions(source))).toEqual([
    ['f', 3, 10], ['Job', 15, 15], ['n', 16, 16], ['EMSCRIPTEN_BINDINGS', 21, 23],
  ]);
});

test('TypeScript and JavaScript: functions, methods, arrows and callbacks, nested ones on their own too', () => {
  const source = [
    'export function outer(a: number): number {',  // 1
    '  const inner = (b: number) => {',             // 2
    '    return b + 1;',                            // 3
    '  };',                                         // 4
    '  return [a].map((x) => inner(x))[0];',        // 5
    '}',                                            // 6
    'class Pool {',                                 // 7
    '  constructor() {}',                           // 8
    '  get size() { return 1; }',                   // 9
    '}',                                            // 10
  ].join('\n');
  expect(spans(typescriptFunctions('x.ts', source))).toEqual([
    ['outer', 1, 6], ['inner', 2, 4], ['(anonymous)', 5, 5], ['constructor', 8, 8], ['size', 9, 9],
  ]);
});

test('bash: one-line and multi-line functions, a brace group inside one', () => {
  const source = ['step() { printf "%s\\n" "$*"; }', 'run_tests() {', '  { echo a; } > /dev/null', '  step b', '}'].join('\n');
  expect(spans(shellFunctions(source))).toEqual([['step', 1, 1], ['run_tests', 2, 5]]);
});

test('the command lists each function over --max lines, Python included, and exits 1 only then', () => {
  const folder = mkdtempSync(join(tmpdir(), 'function-length-'));
  const body = (n) => Array.from({ length: n }, (_, i) => `    x${i} = ${i}`).join('\n');
  writeFileSync(join(folder, 'long.py'), `def short():\n${body(3)}\n\n\ndef long():\n${body(80)}\n`);
  expect(spans(allFunctions([folder]))).toEqual([['short', 1, 4], ['long', 7, 87]]);
  const check = (max) => spawnSync(process.execPath, ['tools/function-length/index.js', '--max', String(max), folder],
    { cwd: ROOT, encoding: 'utf8' });
  const over = check(80);
  expect(over.status).toBe(1);
  expect(over.stdout).toMatch(/long\.py:7-87: long has 81 lines \(over 80\)/);
  expect(over.stdout).not.toMatch(/short/);
  expect(check(81).status).toBe(0);
});

test('a test suite\'s callback is a scope, not a function: its tests and helpers are checked one by one', () => {
  const source = [
    "describe('suite', () => {",              // 1
    '  const helper = () => {',               // 2
    '    return 1;',                          // 3
    '  };',                                   // 4
    "  test('a', () => {",                    // 5
    '    expect(helper()).toBe(1);',          // 6
    '  });',                                  // 7
    "  describe.skip('inner', function () {", // 8
    "    it('b', () => {});",                 // 9
    '  });',                                  // 10
    '});',                                    // 11
    "describeThis('not a suite', () => {",    // 12
    '});',                                    // 13
  ].join('\n');
  expect(spans(typescriptFunctions('x.test.js', source))).toEqual([
    ['helper', 2, 4], ['(anonymous)', 5, 7], ['(anonymous)', 9, 9], ['(anonymous)', 12, 13],
  ]);
});
