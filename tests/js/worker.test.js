// The worker protocol (crossattn/worker) over a Node MessageChannel: serveTranslator on one port,
// WorkerTranslator on the other, as a page and its Web Worker would use them.
import { readFileSync } from 'node:fs';
import { MessageChannel, Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DisposedError, InvalidInputError, ModelFormatError, Translator, WorkerError, pharaoh, relaxedSimdSupported, splitSentences,
} from '../../dist/index.js';
import { WorkerPool, WorkerTranslator, serveTranslator } from '../../dist/worker.js';
import { DATA, MODEL } from './paths.js';

let channel, client;
beforeAll(async () => {
  channel = new MessageChannel();
  serveTranslator(channel.port1);
  channel.port1.start();
  channel.port2.start();
  client = await WorkerTranslator.load(channel.port2, MODEL);
});
afterAll(() => {
  channel.port1.close();
  channel.port2.close();
});

test('translate, translateBatch and align answer across the channel', async () => {
  expect(client.simd).toBe(relaxedSimdSupported() ? 'relaxed' : 'simd128');  // the build the worker's load chose
  const one = await client.translate('A dog runs.', { alignment: true, residual: true });
  expect(one.alignment.links.length).toBeGreaterThan(0);
  expect(one.residual.cosine).toHaveLength(client.config.decoderLayers);
  const batch = await client.translateBatch(['A dog runs.', 'Two men talk.']);
  expect(batch[0].text).toBe(one.text);
  const forced = await client.align('A dog runs.', 'Ein Hund rennt.');
  expect(pharaoh(forced.alignment)).toBe('0-0 1-1 2-2');
  await expect(client.align('A dog runs.', 'Ein Hund rennt.', { alignment: { layers: [9] } })).rejects.toThrow(InvalidInputError);
  expect((await client.align('A cat.', 'Eine Katze.')).targetWords).toEqual(['Eine', 'Katze.']);
});

// The same classes over node:worker_threads Workers, as the README's Node example runs them.
describe('in Node worker threads', () => {
  const SCRIPT = new URL('./fixtures/translator-worker.js', import.meta.url);
  const spawn = (n) => Array.from({ length: n }, () => new Worker(SCRIPT));
  const exited = (worker) => new Promise((resolve) => worker.once('exit', resolve));

  test('a WorkerPool of two translates a document in order, as one Translator does', async () => {
    // Nine FLORES dev lines as one document, cut again by splitSentences into more sentences than workers.
    const document = readFileSync(`${DATA}/flores-dev/dev.en`, 'utf8').split('\n').slice(0, 9).join(' ');
    const sentences = splitSentences(document, 'en');
    expect(sentences.length).toBeGreaterThan(2);
    const workers = spawn(2);
    const pool = await WorkerPool.load(workers, MODEL);
    expect([pool.size, pool.threads]).toEqual([2, 1]);  // docs/api.md: each worker runs 1 thread by default
    expect(pool.simd).toBe(relaxedSimdSupported() ? 'relaxed' : 'simd128');
    const single = await Translator.load(MODEL);
    try {
      expect(pool.config).toEqual(single.config);
      const [pooled, alone] = await Promise.all([pool.translateBatch(sentences), single.translateBatch(sentences)]);
      expect(pooled).toHaveLength(sentences.length);
      pooled.forEach((r, i) => {
        expect(r.sourceTokens, `sentence ${i}`).toEqual(alone[i].sourceTokens);
        expect(r.targetIds, `sentence ${i}`).toEqual(alone[i].targetIds);
        expect(r.text).toBe(alone[i].text);
        expect(r.logProb).toBeCloseTo(alone[i].logProb, 4);
      });
      // Each text keeps its own target prefix when the texts are cut into one chunk per worker.
      const prefixes = sentences.map((_, i) => (i % 2 ? alone[i].text.split(' ')[0] : ''));
      const [prefixedPool, prefixedAlone] = await Promise.all([
        pool.translateBatch(sentences, { targetPrefix: prefixes }),
        single.translateBatch(sentences, { targetPrefix: prefixes })]);
      expect(prefixedPool.map((r) => r.text)).toEqual(prefixedAlone.map((r) => r.text));
      // A typed error raised in a worker arrives as the same class.
      await expect(pool.translateBatch(['A dog.'], { beamSize: 0 })).rejects.toThrow(InvalidInputError);
    } finally {
      single.dispose();
      pool.dispose();
    }
    await Promise.all(workers.map(exited));  // dispose terminates the threads
    await expect(pool.translateBatch(['A dog.'])).rejects.toThrow(DisposedError);
  });

  test("the caller's model bytes stay whole; a bad model file is ModelFormatError from the worker", async () => {
    const bytes = new Uint8Array(readFileSync(MODEL));
    const [worker] = spawn(1);
    const client = await WorkerTranslator.load(worker, bytes);
    expect(bytes.byteLength).toBe(readFileSync(MODEL).length);  // copied, not moved out of the caller's hands
    expect((await client.translate('A dog runs.')).text.length).toBeGreaterThan(0);
    client.dispose();
    const [other] = spawn(1);
    const text = new TextEncoder().encode('A text file, not a model.\n'.repeat(4));
    const refused = WorkerTranslator.load(other, text);
    await expect(refused).rejects.toThrow(ModelFormatError);
    await expect(refused).rejects.toThrow('the model bytes are not a crossattn model file: it starts with "A text file, not a model"');
    other.terminate();
  });

  test('a worker that throws or exits fails its requests with WorkerError instead of hanging', async () => {
    const thrower = new Worker('throw new Error("no engine here")', { eval: true });
    await expect(WorkerTranslator.load(thrower, MODEL)).rejects.toThrow(/the worker stopped: no engine here/);
    const quitter = new Worker('process.exit(3)', { eval: true });
    await expect(WorkerTranslator.load(quitter, MODEL)).rejects.toThrow(WorkerError);
    // A pool whose load fails ends its workers, so that no thread keeps Node running.
    const workers = spawn(2);
    await expect(WorkerPool.load(workers, `${MODEL}.missing`)).rejects.toThrow(/does not exist/);
    await Promise.all(workers.map(exited));
  });
});

// docs/api.md's promise for the worker classes (issue 46, item 2): every failure is a typed
// rejection that arrives at once, never an uncaught error in the client (which would end Node) or
// a promise that never settles.
describe('the worker classes fail typed and at once', () => {
  const SCRIPT = new URL('./fixtures/translator-worker.js', import.meta.url);
  // `promise`'s error (name and message), or a note that it hung past 5 s; resolving is a failure here.
  const failureOf = (promise) => Promise.race([
    promise.then((value) => ({ resolved: value }), (e) => ({ name: e.constructor.name, message: e.message })),
    new Promise((resolve) => setTimeout(() => resolve({ hung: '5 s' }), 5000).unref()),
  ]);
  // A worker thread whose postMessage calls are counted: what reached it.
  const countedWorker = () => {
    const worker = new Worker(SCRIPT);
    const post = worker.postMessage.bind(worker);
    worker.posted = 0;
    worker.postMessage = (...args) => { worker.posted += 1; post(...args); };
    return worker;
  };

  test('bad options and texts are InvalidInputError before anything is posted, and the worker goes on', async () => {
    const worker = countedWorker();
    const t = await WorkerTranslator.load(worker, MODEL);
    const pool = await WorkerPool.load([new Worker(SCRIPT), new Worker(SCRIPT)], MODEL);
    try {
      const posted = worker.posted;
      const refused = [
        [t.translate('A dog runs.', { onToken: 5 }), 'onToken must be a function'],
        [t.translateBatch(['A dog runs.'], { onToken: 'tokens' }), 'onToken must be a function'],
        [t.align('A dog.', 'Ein Hund.', { signal: 5 }), 'signal must be an AbortSignal'],
        [t.translate('A dog.', null), 'options must be an object'],
        [t.translate('A dog.', { beamSize: 2n }), 'options must hold plain values'],
        [t.translateBatch([, 'A dog.']), 'texts[0] is a hole'],
        [pool.translateBatch(['A dog runs.', 'A cat sleeps.'], { onToken: 5 }), 'onToken must be a function'],
        [pool.align('A dog.', 'Ein Hund.', { onToken: {} }), 'onToken must be a function'],
      ];
      for (const [promise, message] of refused) {
        expect(await failureOf(promise)).toEqual({ name: 'InvalidInputError', message: expect.stringContaining(message) });
      }
      expect(worker.posted).toBe(posted);  // checked here, as Translator checks them: nothing crossed
      // A text the structured clone cannot copy is the caller's input too: typed, not a DataCloneError.
      expect(await failureOf(t.translate(() => 'A dog.'))).toMatchObject({ name: 'InvalidInputError' });
      // The engine's ranges are checked in the worker and come back as their class.
      expect(await failureOf(t.translate('A dog.', { beamSize: 0 }))).toMatchObject({ name: 'InvalidInputError' });
      // ... with the engine's structured fault, so that a front end can word it in its own names.
      const refusal = await t.translate('A dog.', { beamSize: 0 }).catch((e) => e);
      expect(refusal.fault).toMatchObject({ option: 'beamSize', value: '0' });
      const events = [];
      const after = await t.translate('A dog runs.', { onToken: (e) => events.push(e) });
      expect(events.at(-1).text).toBe(after.text);
      expect((await pool.translateBatch(['A dog runs.']))[0].text).toBe(after.text);
    } finally {
      t.dispose();
      pool.dispose();
    }
  });

  test('what onToken or onProgress throws rejects that call only, as in Translator', async () => {
    const t = await WorkerTranslator.load(new Worker(SCRIPT), MODEL);
    try {
      const thrown = new RangeError('stop here');
      expect(await failureOf(t.translate('A dog runs.', { onToken: () => { throw thrown; } })))
        .toEqual({ name: 'RangeError', message: 'stop here' });
      expect((await t.translate('A dog runs.')).text.length).toBeGreaterThan(0);
    } finally {
      t.dispose();
    }
    const worker = new Worker(SCRIPT);
    const exit = new Promise((resolve) => worker.once('exit', resolve));
    expect(await failureOf(WorkerTranslator.load(worker, MODEL, { onProgress: 5 })))
      .toEqual({ name: 'InvalidInputError', message: 'onProgress must be a function' });
    await exit;  // a failed load ends its worker
    const workers = [new Worker(SCRIPT), new Worker(SCRIPT)];
    const exits = workers.map((w) => new Promise((resolve) => w.once('exit', resolve)));
    expect(await failureOf(WorkerPool.load(workers, MODEL, { onProgress: 'progress' })))
      .toEqual({ name: 'InvalidInputError', message: 'onProgress must be a function' });
    await Promise.all(exits);
  });

  test('every call after dispose() rejects with DisposedError, on WorkerTranslator and WorkerPool', async () => {
    const t = await WorkerTranslator.load(new Worker(SCRIPT), MODEL);
    const pool = await WorkerPool.load([new Worker(SCRIPT), new Worker(SCRIPT)], MODEL);
    const alignment = (await t.align('A dog.', 'Ein Hund.')).alignment;
    const waiting = t.translate('A dog runs. '.repeat(20), { beamSize: 4 });
    t.dispose();
    pool.dispose();
    const disposed = { name: 'DisposedError', message: expect.stringMatching(/disposed/) };
    expect(await failureOf(waiting)).toEqual(disposed);  // pending when disposed
    const calls = {
      'WorkerTranslator.translate': t.translate('A dog.'),
      'WorkerTranslator.translate, bad options too': t.translate('A dog.', { onToken: 5 }),
      'WorkerTranslator.translateBatch': t.translateBatch(['A dog.']),
      'WorkerTranslator.translateBatch of none': t.translateBatch([]),
      'WorkerTranslator.align': t.align('A dog.', 'Ein Hund.'),
      'WorkerTranslator.symmetrize': t.symmetrize(alignment, alignment),
      'WorkerTranslator.loadModel': t.loadModel(MODEL, {}),
      'WorkerPool.translateBatch': pool.translateBatch(['A dog.', 'A cat.']),
      'WorkerPool.translateBatch of none': pool.translateBatch([]),
      'WorkerPool.align': pool.align('A dog.', 'Ein Hund.'),
      'WorkerPool.symmetrize': pool.symmetrize(alignment, alignment),
    };
    for (const [call, promise] of Object.entries(calls)) expect(await failureOf(promise), call).toEqual(disposed);
  });

  test('a worker that dies, or had stopped already, fails its calls with WorkerError', async () => {
    const worker = new Worker(SCRIPT);
    const t = await WorkerTranslator.load(worker, MODEL);
    const waiting = t.translate('A dog runs. '.repeat(20), { beamSize: 4 });
    await worker.terminate();  // from outside, as a crash would
    expect(await failureOf(waiting)).toEqual({ name: 'WorkerError', message: expect.stringMatching(/^the worker stopped: it exited/) });
    expect(await failureOf(t.translate('A dog.'))).toMatchObject({ name: 'WorkerError' });
    const stopped = new Worker(SCRIPT);
    await stopped.terminate();
    expect(await failureOf(WorkerTranslator.load(stopped, MODEL))).toMatchObject({ name: 'WorkerError' });
    // Over a MessagePort: the serving end closes (as its worker's ports do when the worker ends).
    const channel = new MessageChannel();
    serveTranslator(channel.port1);
    const client = await WorkerTranslator.load(channel.port2, MODEL);
    const unanswered = client.translate('A dog runs.');
    channel.port1.close();
    expect(await failureOf(unanswered)).toEqual({ name: 'WorkerError', message: 'the worker stopped: its port was closed' });
    client.dispose();
  });
});
