// The worker protocol (crossattn/worker) over a Node MessageChannel: serveTranslator on one port,
// WorkerTranslator on the other, as a page and its Web Worker would use them.
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { InvalidInputError, pharaoh } from '../../dist/index.js';
import { WorkerTranslator, serveTranslator } from '../../dist/worker.js';
import { MODEL } from './paths.js';

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
