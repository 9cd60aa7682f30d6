/**
 * A client that sends its request a byte at a time holds a connection open. The server must
 * cut it at the request timeout, not whenever Node next happens to look (every 30 s by default).
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** How the server answered a dripping client, and how long after the first byte it let go. */
interface Cut {
  elapsedMs: number;
  response: string;
  error: string | undefined;
}

/**
 * Sends `start`, then one more `drip` every 100 ms, until the server closes the connection or
 * `giveUpMs` passes (then the connection is dropped here and reported as never cut).
 */
async function dripUntilCut(port: number, start: string, drip: string, giveUpMs: number): Promise<Cut | 'never cut'> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let response = '';
  let error: string | undefined;
  socket.on('data', (chunk: Buffer) => (response += chunk.toString('latin1')));
  socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
  const started = performance.now();
  socket.write(start);
  const dripping = setInterval(() => socket.writable && socket.write(drip), 100);
  const outcome = await new Promise<Cut | 'never cut'>((resolve) => {
    const giveUp = setTimeout(() => resolve('never cut'), giveUpMs);
    socket.once('close', () => {
      clearTimeout(giveUp);
      resolve({ elapsedMs: performance.now() - started, response, error });
    });
  });
  clearInterval(dripping);
  socket.destroy();
  return outcome;
}

describe('slow clients', () => {
  it('are cut at the request timeout, whether they drip the headers or the body', async () => {
    t = await createTestApp('sqlite', { requestTimeoutMs: 1500 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;

    const body =
      'POST /api/poll-suggestions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{';
    const headers = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n';
    const [bodyCut, headersCut] = await Promise.all([
      dripUntilCut(port, body, ' ', 5000),
      dripUntilCut(port, headers, 'X-Padding: 1\r\n', 5000),
    ]);

    for (const cut of [bodyCut, headersCut]) {
      if (cut === 'never cut') throw new Error('the server was still reading the request 5 s after it began');
      // A 408 with the usual JSON message, or at least a reset: never an answer to the request.
      if (cut.response) expect(cut.response).toMatch(/^HTTP\/1\.1 408 /);
      else expect(cut.error).toBe('ECONNRESET');
      // Not before the timeout, and within the timeout plus the checking interval (150 ms at
      // 1.5 s), with 350 ms to spare for a busy machine.
      expect(cut.elapsedMs).toBeGreaterThanOrEqual(1500);
      expect(cut.elapsedMs).toBeLessThan(2000);
    }
  });

  it('get the 30 s the README promises, checked every second', async () => {
    t = await createTestApp('sqlite');
    const server = t.app.server as typeof t.app.server & { connectionsCheckingInterval: number };
    expect(server.requestTimeout).toBe(30_000);
    expect(server.headersTimeout).toBe(30_000);
    expect(server.connectionsCheckingInterval).toBe(1000);
  });
});
