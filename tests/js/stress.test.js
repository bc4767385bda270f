// Concurrency, abort and dispose stress (issue 17): hundreds of calls in flight at once on two
// translators, streaming ones interleaving step by step, a third of them aborted at random points,
// and one translator disposed from inside a token callback while its calls run. Every call must
// settle with the translation it would give alone or with the typed error its fate calls for, and
// the surviving translator must translate as before.
//   CROSSATTN_STRESS_CALLS=5000 npx vitest run --config tests/js/vitest.config.js tests/js/stress.test.js
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CancelledError, DisposedError, Translator } from '../../dist/index.js';
import { INT8_MODEL } from './paths.js';

const CALLS = Number(process.env.CROSSATTN_STRESS_CALLS ?? 600);
const SENTENCES = ['A dog runs through the grass.', 'Two men are playing football on a green field.',
                   'A woman in a red coat is reading a newspaper at the bus stop.', 'Is this your bike?'];
const KINDS = [
  { name: 'greedy', options: {} },
  { name: 'beam', options: { beamSize: 3 } },
];

// mulberry32: a seeded generator, so that a failure can be replayed.
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let survivor, doomed;
const reference = new Map();  // `${kind}|${sentence}` -> text, each translated alone
beforeAll(async () => {
  [survivor, doomed] = await Promise.all([Translator.load(INT8_MODEL), Translator.load(INT8_MODEL)]);
  for (const kind of KINDS) {
    for (const s of SENTENCES) reference.set(`${kind.name}|${s}`, (await survivor.translate(s, kind.options)).text);
  }
});
afterAll(() => survivor?.dispose());

test(`${CALLS} concurrent calls with random aborts and a dispose mid-flight settle correctly`, async () => {
  const rand = random(17);
  let events = 0;
  const disposeAt = 50 + Math.floor(rand() * 200);  // the token event (all calls together) that disposes `doomed`
  const calls = Array.from({ length: CALLS }, () => {
    const onDoomed = rand() < 0.3;
    const kind = KINDS[Math.floor(rand() * KINDS.length)];
    const sentence = SENTENCES[Math.floor(rand() * SENTENCES.length)];
    const abortAfter = rand() < 0.33 ? Math.floor(rand() * 6) : -1;  // abort after this many of its own tokens
    const streaming = abortAfter >= 0 || rand() < 0.7;
    const batch = !streaming && rand() < 0.5;
    const controller = new AbortController();
    let own = 0;
    const options = { ...kind.options, attention: false };
    if (streaming) {
      options.signal = controller.signal;
      options.onToken = () => {
        if (++events === disposeAt) doomed.dispose();
        if (++own === abortAfter) controller.abort();
      };
    }
    if (abortAfter === 0) controller.abort();
    const translator = onDoomed ? doomed : survivor;
    const pending = batch
      ? translator.translateBatch([sentence, sentence], options).then((rs) => rs[1])
      : translator.translate(sentence, options);
    return { pending, onDoomed, expected: reference.get(`${kind.name}|${sentence}`), aborted: () => controller.signal.aborted };
  });

  const settled = await Promise.allSettled(calls.map((c) => c.pending));
  const count = { done: 0, cancelled: 0, disposed: 0 };
  settled.forEach((outcome, i) => {
    const call = calls[i];
    if (outcome.status === 'fulfilled') {
      expect(outcome.value.text, `call ${i}`).toBe(call.expected);
      ++count.done;
    } else if (outcome.reason instanceof CancelledError) {
      expect(call.aborted(), `call ${i} was cancelled without an abort`).toBe(true);
      ++count.cancelled;
    } else {
      expect(outcome.reason, `call ${i}`).toBeInstanceOf(DisposedError);
      expect(call.onDoomed, `call ${i}: DisposedError on the translator that was not disposed`).toBe(true);
      ++count.disposed;
    }
  });
  // Every fate happened, so the test exercised what it is about.
  expect(count.done).toBeGreaterThan(CALLS / 3);
  expect(count.cancelled).toBeGreaterThan(CALLS / 10);
  expect(count.disposed).toBeGreaterThan(0);
  expect(events).toBeGreaterThanOrEqual(disposeAt);

  // The survivor translates as before; the disposed one refuses with a typed error.
  for (const s of SENTENCES) expect((await survivor.translate(s)).text).toBe(reference.get(`greedy|${s}`));
  await expect(doomed.translate(SENTENCES[0])).rejects.toBeInstanceOf(DisposedError);
  // All those jobs in flight at once: the heap grew for them (each holds its encoder output and its
  // hypotheses' KV caches, about 0.3 MB for a beam-3 call on these sentences), within a bound per
  // call in flight, and holds still now.
  const memory = survivor.memoryBytes;
  expect(memory).toBeLessThan(64 * 2 ** 20 + CALLS * 2 ** 19);
  for (const s of SENTENCES) await survivor.translate(s, { beamSize: 3 });
  expect(survivor.memoryBytes).toBe(memory);
});
