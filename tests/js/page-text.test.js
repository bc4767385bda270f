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
