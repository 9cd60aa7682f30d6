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
import { daytimeZone } from './testing/test-clock.js';

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

  it('closes what a slow client holds open at the deadline and stops with exit code 0, every vote received written', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-main-'));
    const file = path.join(dir, 'site.sqlite');
    const zone = daytimeZone();
    const db = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(db);
    const poll = await seedPoll(db, { liveDate: localDateAt(new Date(), zone) });
    await db.destroy();
    const server = startServer({ PORT: '0', DATABASE_URL: file, SITE_TIMEZONE: zone, VOTING_CLOSES_AT: '23:59' });
    child = server.child;
    const address = await server.listening;
    const voteUrl = `${address}/api/polls/${poll.id}/vote`;
    const vote = () =>
      fetch(voteUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ optionIndex: 1, voterEmail: '' }),
      });
    const votes = await Promise.all([vote(), vote(), vote()]);
    expect(votes.map((response) => response.status)).toEqual([201, 201, 201]);

    // A client that sends a vote's headers and a little of its body, then nothing more. Its
    // "100 Continue" says the server has the request under way.
    const { port } = new URL(address);
    const slow = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/api/polls/${poll.id}/vote`,
      headers: { 'content-type': 'application/json', 'content-length': 40, expect: '100-continue' },
    });
    const cut = new Promise((resolve) => slow.once('error', resolve));
    await new Promise((resolve) => slow.once('continue', resolve));
    slow.write('{"optionIndex":0');

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await cut; // its connection was closed, unanswered
    const messages = server.lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toContain('requests did not finish in time; closing their connections');
    const written = openDatabase({ kind: 'sqlite', file });
    try {
      const rows = await written.selectFrom('votes').select('option_index').where('poll_id', '=', poll.id).execute();
      expect(rows.map((row) => row.option_index)).toEqual([1, 1, 1]);
    } finally {
      await written.destroy();
    }
  }, 60_000);

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
