// The worker classes' typed-error promise (docs/api.md, issue 46 item 2) in Debian's Chromium, with DOM
// Web Workers running web/worker.js (dist/worker.js's serveTranslator): bad options are
// InvalidInputError before anything is posted, every call after dispose() rejects with DisposedError,
// a worker that dies or never starts fails its calls with WorkerError, and no error escapes to the
// page. tests/js/worker.test.js checks the same in Node's worker threads.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { securityHeaders, serve } from '../../web/serve.js';
import { launchChromium } from './browser.js';

const MODEL = '/models/multi30k-en-de/multi30k-en-de.int8.crossattn';
// A worker that loads models, but throws instead of answering a translation, as a crash would: an
// uncaught error in a worker is an 'error' event on its Worker (HTML Living Standard, "Workers"),
// and the request is never answered. Served by route() under /web/, the only folder of the page's
// scripts, with the server's headers (a worker of a COEP page must carry COEP too).
const DYING_WORKER = `import { serveTranslator } from '/dist/worker.js';
self.addEventListener('message', (event) => {
  if (event.data?.type !== 'translate') return;
  event.stopImmediatePropagation();  // serveTranslator's listener, added next, never sees it
  throw new Error('the engine fell over');
});
serveTranslator();`;

let server, url, browser, page;
const pageErrors = [];

// Runs `body` (an async function's body, given `arg`) in the page. A string, so that Vitest does not
// rewrite its import() into its own loader, which the page does not have.
const inPage = (body, arg = null) => page.evaluate(`(async (arg) => {
  const { WorkerPool, WorkerTranslator } = await import('/dist/worker.js');
  const worker = (script = '/web/worker.js') => new Worker(script, { type: 'module' });
  // A call's error as [class, message], or that it resolved, or that it hung past 5 s.
  const failureOf = (promise) => Promise.race([
    promise.then(() => ['resolved'], (e) => [e.constructor.name, e.message]),
    new Promise((resolve) => setTimeout(() => resolve(['hung 5 s']), 5000)),
  ]);
  ${body} })(${JSON.stringify(arg)})`);

beforeAll(async () => {
  ({ server, url } = await serve(0));
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.route('**/web/dying-worker.js', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', headers: securityHeaders(), body: DYING_WORKER }));
  await page.goto(new URL('/models/catalog.json', url).href);  // a page of this origin that starts no app
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

test('bad options are InvalidInputError before anything is posted, and the worker goes on', async () => {
  const outcome = await inPage(`
    const w = worker();
    let posted = 0;
    const post = w.postMessage.bind(w);
    w.postMessage = (...args) => { posted += 1; post(...args); };
    const t = await WorkerTranslator.load(w, arg.model);
    const pool = await WorkerPool.load([worker(), worker()], arg.model);
    const before = posted;
    const refused = [
      await failureOf(t.translate('A dog runs.', { onToken: 5 })),
      await failureOf(t.translateBatch(['A dog runs.'], { onToken: 'tokens' })),
      await failureOf(t.align('A dog.', 'Ein Hund.', { signal: 5 })),
      await failureOf(t.translateBatch([, 'A dog.'])),
      await failureOf(pool.translateBatch(['A dog runs.', 'A cat sleeps.'], { onToken: 5 })),
    ];
    const sent = posted - before;
    const events = [];
    const after = await t.translate('A dog runs.', { onToken: (e) => events.push(e.text) });
    const pooled = (await pool.translateBatch(['A dog runs.']))[0].text;
    t.dispose();
    pool.dispose();
    return { refused, sent, after: after.text, streamed: events.at(-1), pooled };`, { model: MODEL });
  expect(outcome.refused).toEqual([
    ['InvalidInputError', 'onToken must be a function'],
    ['InvalidInputError', 'onToken must be a function'],
    ['InvalidInputError', 'signal must be an AbortSignal'],
    ['InvalidInputError', expect.stringContaining('texts[0] is a hole')],
    ['InvalidInputError', 'onToken must be a function'],
  ]);
  expect(outcome.sent).toBe(0);
  expect(outcome.after.length).toBeGreaterThan(0);
  expect(outcome.streamed).toBe(outcome.after);
  expect(outcome.pooled).toBe(outcome.after);
  expect(pageErrors).toEqual([]);  // before the fix, onToken: 5 threw "entry.onToken is not a function" here
});

test('every call after dispose() rejects with DisposedError, on WorkerTranslator and WorkerPool', async () => {
  const outcome = await inPage(`
    const t = await WorkerTranslator.load(worker(), arg.model);
    const pool = await WorkerPool.load([worker(), worker()], arg.model);
    const { alignment } = await t.align('A dog.', 'Ein Hund.');
    const waiting = t.translate('A dog runs. '.repeat(20), { beamSize: 4 });
    t.dispose();
    pool.dispose();
    return {
      'pending WorkerTranslator.translate': await failureOf(waiting),
      'WorkerTranslator.translate': await failureOf(t.translate('A dog.', { onToken: 5 })),
      'WorkerTranslator.translateBatch': await failureOf(t.translateBatch([])),
      'WorkerTranslator.align': await failureOf(t.align('A dog.', 'Ein Hund.')),
      'WorkerTranslator.symmetrize': await failureOf(t.symmetrize(alignment, alignment)),
      'WorkerTranslator.loadModel': await failureOf(t.loadModel(arg.model, {})),
      'WorkerPool.translateBatch': await failureOf(pool.translateBatch(['A dog.', 'A cat.'])),
      'WorkerPool.translateBatch of none': await failureOf(pool.translateBatch([])),
      'WorkerPool.align': await failureOf(pool.align('A dog.', 'Ein Hund.')),
      'WorkerPool.symmetrize': await failureOf(pool.symmetrize(alignment, alignment)),
    };`, { model: MODEL });
  for (const [call, failure] of Object.entries(outcome)) {
    expect(failure, call).toEqual(['DisposedError', expect.stringMatching(/disposed/)]);
  }
  expect(pageErrors).toEqual([]);
});

test('a worker that dies, or whose script does not load, fails its calls with WorkerError', async () => {
  const outcome = await inPage(`
    const t = await WorkerTranslator.load(worker('/web/dying-worker.js'), arg.model);
    return {
      dying: await failureOf(t.translate('A dog runs.')),
      later: await failureOf(t.translate('A dog runs.')),
      missing: await failureOf(WorkerTranslator.load(worker('/web/no-such-worker.js'), arg.model)),
      pool: await failureOf(WorkerPool.load([worker(), worker('/web/no-such-worker.js')], arg.model)),
    };`, { model: MODEL });
  expect(outcome.dying).toEqual(['WorkerError', expect.stringContaining('the engine fell over')]);
  expect(outcome.later[0]).toBe('WorkerError');
  expect(outcome.missing[0]).toBe('WorkerError');
  expect(outcome.pool[0]).toBe('WorkerError');
});
