#!/usr/bin/env node
// Lists every function over 80 lines in the code (cpp/, bindings/, web/, bench/, tests/, models/*.py,
// tools/) and exits 1 when there is one. A function's lines run from its signature to its
// closing brace (or, in Python, its last line), nested functions included; a nested function is also
// checked on its own. Parsers: TypeScript's for .ts/.js/.mjs, Python's ast for .py,
// a brace-matching scan for C++ (.cc, .h) and a line scan for bash (.sh).
//   node tools/function-length/index.js [--max N] [FILE_OR_FOLDER...]   (default: the folders above)
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cppFunctions } from './cpp.js';
import { shellFunctions } from './shell.js';
import { typescriptFunctions } from './typescript.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
// models/ holds shipped models and their files below it: only its own Python scripts are code.
const DEFAULT_PATHS = ['cpp', 'bindings', 'web', 'bench', 'tests', 'tools', ...pythonScripts('models')];
const EXTENSIONS = new Set(['.ts', '.mts', '.js', '.mjs', '.cjs', '.py', '.cc', '.h', '.sh']);
const SKIPPED_FOLDERS = new Set(['node_modules', '__pycache__', 'dist', 'build']);

function pythonScripts(folder) {
  return readdirSync(join(ROOT, folder)).filter((name) => name.endsWith('.py')).map((name) => join(folder, name));
}

function sourceFiles(path) {
  if (!statSync(path).isDirectory()) return EXTENSIONS.has(extname(path)) ? [path] : [];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => !(entry.isDirectory() && SKIPPED_FOLDERS.has(entry.name)))
    .flatMap((entry) => sourceFiles(join(path, entry.name)));
}

// Python's functions for all .py files at once: one interpreter start, not one a file.
function pythonFunctions(files) {
  if (files.length === 0) return new Map();
  const output = execFileSync('python3', [join(HERE, 'python.py'), ...files], { encoding: 'utf8' });
  return new Map(output.trim().split('\n').map((line) => {
    const { file, functions } = JSON.parse(line);
    return [file, functions];
  }));
}

/** { file, name, start, end, lines } of every function in `paths` (files or folders). */
export function allFunctions(paths) {
  const files = paths.flatMap((path) => sourceFiles(resolve(ROOT, path))).sort();
  const python = pythonFunctions(files.filter((file) => file.endsWith('.py')));
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const extension = extname(file);
    const functions = extension === '.py' ? python.get(file)
      : extension === '.cc' || extension === '.h' ? cppFunctions(text)
        : extension === '.sh' ? shellFunctions(text)
          : typescriptFunctions(file, text);
    return functions.map((fn) => ({ file: relative(ROOT, file), ...fn }));
  });
}

function main() {
  const { values, positionals } = parseArgs({ options: { max: { type: 'string', default: '80' } }, allowPositionals: true });
  const max = Number(values.max);
  const long = allFunctions(positionals.length ? positionals : DEFAULT_PATHS).filter((fn) => fn.lines > max);
  for (const fn of long) console.log(`${fn.file}:${fn.start}-${fn.end}: ${fn.name} has ${fn.lines} lines (over ${max})`);
  if (long.length) {
    console.log(`${long.length} function${long.length === 1 ? '' : 's'} over ${max} lines: split them into named steps`);
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
