/** The server as a real process: start, answer, stop on SIGTERM; refuse a bad configuration. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, localDateAt } from '../shared/time.js';
import { openDatabase } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { seedPoll } from './testing/fixtures.js';

const MAIN = path.resolve(import.meta.dirname, 'main.ts');

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  readline.createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const address = lines.map((l) => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(l)?.[1]).find(Boolean);
      if (address) {
        clearInterval(timer);
        resolve(address);
      }
    }, 20);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code}: ${stderr}`));
    });
  });
  listening.catch(() => undefined); // a test that expects an exit does not wait for listening
  return { child, lines, exited, listening, stderr: () => stderr };
}

let child: ChildProcess | undefined;
let dir: string | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the server process', () => {
  it('migrates, serves, and stops cleanly on SIGTERM', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-main-'));
    const server = startServer({ PORT: '0', DATABASE_URL: path.join(dir, 'site.sqlite') });
    child = server.child;
    const address = await server.listening;

    const health = await fetch(`${address}/healthz`);
    expect(health.status).toBe(200);
    const active = await fetch(`${address}/api/polls/active`);
    expect(await active.json()).toBeNull();
    // Preview images are drawn in a worker thread, which must load from wherever the server runs.
    const image = await fetch(`${address}/og/today.png`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    // A connection opened ahead of need, as browsers do, that never sends a request ...
    const { port } = new URL(address);
    const idle = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => idle.once('connect', resolve));

    // ... must not hold up the stop (the server gives up with exit code 1 after 10 s).
    const stopped = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - stopped).toBeLessThan(9000);
    idle.destroy();
    const messages = server.lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toContain('shutting down');
    expect(fs.existsSync(path.join(dir, 'site.sqlite'))).toBe(true);
  });

  it('drains on SIGTERM: /readyz turns 503 at once, a request under way is answered, then it stops', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-main-'));
    const server = startServer({
      PORT: '0',
      DATABASE_URL: path.join(dir, 'site.sqlite'),
      SHUTDOWN_DELAY_SECONDS: '1',
    });
    child = server.child;
    const address = await server.listening;
    const ready = await fetch(`${address}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', warnings: [] });

    // A request under way: its headers are in, its body is not.
    const { port } = new URL(address);
    const body = '{"optionIndex":0,"voterEmail":""}';
    let underWay = (): unknown => undefined;
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/polls/999/vote',
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        },
      );
      request.on('error', reject);
      request.write(body.slice(0, 5));
      underWay = () => request.end(body.slice(5));
    });
    await new Promise((resolve) => setTimeout(resolve, 100)); // the headers reach the server

    server.child.kill('SIGTERM');
    let draining: Response | undefined;
    // A kept-alive socket the server closes as it starts draining may fail one request: ask again.
    while (draining?.status !== 503) draining = await fetch(`${address}/readyz`).catch(() => undefined);
    expect(draining.headers.get('connection')).toBe('close');
    expect(await draining.json()).toMatchObject({
      status: 'draining',
      message: expect.stringMatching(/shutting down \(SIGTERM\)/),
    });

    underWay();
    expect(await answered).toEqual({ status: 404, text: expect.stringContaining('Poll not found') });
    expect(await server.exited).toBe(0);
    await expect(fetch(`${address}/readyz`)).rejects.toThrow();
  });

  it('puts a poll that came due while it was down live at start-up', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-main-'));
    const file = path.join(dir, 'site.sqlite');
    const db = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(db);
    const today = localDateAt(new Date(), 'America/New_York');
    await seedPoll(db, { question: 'Yesterday?', liveDate: addDays(today, -1) });
    await seedPoll(db, { question: 'Due today?', status: 'scheduled', liveDate: today });
    await db.destroy();

    const server = startServer({ PORT: '0', DATABASE_URL: file, MAIL_OUTBOX_DIR: path.join(dir, 'mail') });
    child = server.child;
    const address = await server.listening;
    await expect
      .poll(async () => ((await (await fetch(`${address}/api/polls/active`)).json()) as { question: string }).question)
      .toBe('Due today?');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('refuses to start with a bad configuration, listing every problem without a stack trace', async () => {
    const server = startServer({ PORT: 'http', SITE_TIMEZONE: 'Nowhere/Special', TRUST_PROXY: '0.0.0.0/0' });
    child = server.child;
    expect(await server.exited).toBe(1);
    const stderr = server.stderr();
    expect(stderr).toContain('Invalid configuration:');
    expect(stderr).toContain('PORT must be a port number');
    expect(stderr).toContain('SITE_TIMEZONE must be an IANA time zone');
    expect(stderr).toContain('TRUST_PROXY must not trust every address');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
