// What the page and the README say is what the product does (issue 59, item 4): URL models come from
// any https site that allows cross-origin reads, and the Hub (the page never claims that no request
// leaves its site, nor that URL models must be its own); the package is an ES module only.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { securityHeaders } from '../../web/serve.js';
import { ROOT } from './paths.js';

const read = (path) => readFileSync(`${ROOT}${path}`, 'utf8').replace(/\s+/g, ' ');

test('the page, its URL error and the README word URL models as the policy allows them', () => {
  expect(securityHeaders()['content-security-policy']).toMatch(/connect-src 'self' https:/);
  const page = read('web/index.html'), controls = read('web/open-controls.js'), readme = read('README.md');
  for (const text of [page, controls]) {
    expect(text).not.toMatch(/no request leaves its origin|allows its own only|comes from this site too/);
    expect(text).toMatch(/cross-origin reads/);
  }
  expect(page).toMatch(/any https site that allows cross-origin reads, as Hugging Face and GitHub do/);
  expect(readme).toMatch(/any https URL whose host allows cross-origin reads, as Hugging Face's and GitHub's do/);
});

test('the README says the package is an ES module only, as package.json makes it', () => {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
  expect(pkg.type).toBe('module');
  expect(JSON.stringify(pkg.exports)).not.toMatch(/"require"/);
  expect(read('README.md')).toMatch(/The package is an ES module only \(`"type": "module"`, no `require` entry\)/);
  expect(read('README.md')).toMatch(new RegExp(`on Node ${/>=\s*(\d+)/.exec(pkg.engines.node)[1]} or newer`));
});

test('api.md\'s comparison with CTranslate2 and transformers.js names every search option we have, and claims none we lack', async () => {
  const { OPTION_TABLE } = await import('../../dist/options.generated.js');
  const table = readFileSync(`${ROOT}docs/api.md`, 'utf8').split('## Compared with CTranslate2 and transformers.js')[1];
  const ours = table.split('\n').filter((line) => line.startsWith('| ')).map((line) => line.split(' | ')[0]).join(' ');
  const search = OPTION_TABLE.filter((o) => o.group === 'search').map((o) => o.jsName);
  expect(search.length).toBeGreaterThan(5);
  for (const name of search) expect(ours, name).toContain(`\`${name}\``);
  const none = table.split('\n').find((line) => line.startsWith('| none |'));
  for (const name of ['sampling_topk', 'do_sample', 'top_p', 'temperature']) expect(none).not.toContain(name);
});

test('no file the page or the package ships speaks of work periods: dates and versions only (issue 59, item 5)', async () => {
  const { execFileSync } = await import('node:child_process');
  const { readdirSync } = await import('node:fs');
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }))[0]
    .files.map((f) => f.path);
  const page = readdirSync(`${ROOT}web`).map((f) => `web/${f}`);
  const cards = readdirSync(`${ROOT}models`, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'runs' && d.name !== 'configs')
    .map((d) => `models/${d.name}/README.md`);
  const files = [...new Set([...packed, ...page, ...cards, 'models/architecture.json', 'models/catalog.json'])]
    .filter((f) => /\.(js|mjs|ts|json|md|html|css|txt)$/.test(f));
  expect(files.length).toBeGreaterThan(100);
  const ordinal = /\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|[a-z]+teenth|[a-z]+tieth|(?:twenty|thirty)-[a-z]+) (?:session|stop|work period|sitting)\b/i;
  const runNames = /\bgpu\d+-|\bfinetune\d{2}\b|\barch\d{2}\//;
  for (const file of files) {
    const text = readFileSync(`${ROOT}${file}`, 'utf8');
    expect(ordinal.exec(text)?.[0], file).toBeUndefined();
    expect(runNames.exec(text)?.[0], file).toBeUndefined();
  }
});
