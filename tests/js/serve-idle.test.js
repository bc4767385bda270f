// The dev server (web/serve.js) closes connections that hold it without sending (issue 46, item 7:
// 50 slowloris connections were held for 30 s): a socket that sends nothing, one that trickles its
// headers a byte at a time, and an idle keep-alive connection are each closed by the idle timeout
// (10 s by default; 1 s here so that the test runs fast), while a request that is sent is answered.
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { IDLE_TIMEOUT_MS, serve } from '../../web/serve.js';

const IDLE = 1000;
let server, port;
beforeAll(async () => {
  ({ server } = await serve(0, { idleTimeoutMs: IDLE }));
  port = server.address().port;
});
afterAll(() => server?.close());

/**
 * Opens a raw connection, calls `talk(socket)` once connected, and resolves when the server closes
 * it: {ms: from connecting to the close, data: what the server sent}; {ms: Infinity} if it is still
 * open after `limit` ms (the hang this test is about).
 */
function held(talk, limit = 5 * IDLE) {
  return new Promise((ok) => {
    const socket = connect(port, '127.0.0.1');
    let start = 0, data = '';
    const timer = setTimeout(() => { socket.destroy(); ok({ ms: Infinity, data }); }, limit);
    socket.on('connect', () => { start = performance.now(); talk(socket); });
    socket.on('data', (d) => { data += d; });
    socket.on('error', () => {});
    socket.on('close', () => { clearTimeout(timer); ok({ ms: performance.now() - start, data }); });
  });
}

test('the default: 10 s for headers, for a whole request and of silence on a socket', async () => {
  expect(IDLE_TIMEOUT_MS).toBe(10_000);
  const { server: defaults } = await serve(0);
  try {
    expect([defaults.headersTimeout, defaults.requestTimeout, defaults.timeout]).toEqual([10_000, 10_000, 10_000]);
    expect(defaults.keepAliveTimeout).toBeLessThanOrEqual(10_000);
  } finally {
    defaults.close();
  }
});

test('a socket that sends nothing is closed after the idle timeout, not before', async () => {
  const { ms } = await held(() => {});
  expect(ms).toBeGreaterThanOrEqual(IDLE * 0.9);
  expect(ms).toBeLessThan(Infinity);
});

test('a client trickling its headers (slowloris) is closed once the headers timeout passes', async () => {
  let trickle;
  const { ms, data } = await held((socket) => {
    socket.write('GET /web/ HTTP/1.1\r\nHost: x\r\n');
    trickle = setInterval(() => socket.write('X'), IDLE / 5);  // never idle, never done
  });
  clearInterval(trickle);
  expect(ms).toBeGreaterThanOrEqual(IDLE * 0.9);
  expect(ms).toBeLessThan(Infinity);
  expect(data).not.toMatch(/^HTTP\/1\.1 200/);
});

test('a keep-alive connection is answered, then closed once idle', async () => {
  const { ms, data } = await held((socket) => socket.write('GET /web/ HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n'));
  expect(data).toMatch(/^HTTP\/1\.1 200 OK/);
  expect(ms).toBeLessThan(Infinity);
});

test('a large file is served whole under the short timeout', async () => {
  const response = await fetch(`http://127.0.0.1:${port}/dist/crossattn.wasm`);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect(WebAssembly.validate(bytes)).toBe(true);
});
