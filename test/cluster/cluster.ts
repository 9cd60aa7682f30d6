/**
 * `npm run test:cluster`: the site as deploy/ ships it, for real. Debian's nginx runs
 * deploy/nginx.conf (ports, paths and the per-address limit replaced) in front of 2 built instances on one
 * PostgreSQL database, and this script proves:
 *
 * 1. Votes under load through nginx, with one instance SIGKILLed mid-run and started again:
 *    no acknowledged vote is lost, the tallies equal the vote rows, and nginx routes around
 *    the dead instance (votes keep being acknowledged while it is down).
 * 2. A SIGTERM'd instance drains: /readyz turns 503 first, a request under way is answered,
 *    and once it stops listening every request through nginx goes to the other one.
 * 0. The daily switch and its e-mail happen once: both instances start at once, each finding
 *    today's scheduled poll due, and a real SMTP server (smtp-server, in this process) gets
 *    exactly one daily e-mail per subscriber.
 * 3. "Make Active" pressed on both instances at once, by staff who both saw the same poll
 *    active: one 200, one 409 with a message, one active poll.
 * 4. The write limit is shared through Redis (REDIS_URL): writes through nginx to both
 *    instances get the limit once, not once per instance.
 * 5. nginx limits the requests under way per address (limit_conn): the deployed limit is
 *    generous enough for a school, and one past it (replaced by a smaller one here, which this
 *    process can hold open) is refused with 429.
 *
 * Uses TEST_DATABASE_URL (default postgres://127.0.0.1:5432/test; a schema of its own, dropped
 * at the end) and free ports picked now. Prints its figures; exits 1 on the first failure.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { localDateAt } from '../../src/shared/time.js';
import { openDatabase, withDefaultPostgresUser } from '../../src/server/db/connection.js';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { freePort } from '../../src/server/testing/free-port.js';
import { SmtpTestServer } from '../../src/server/testing/smtp-test-server.js';
import { daytimeZone } from '../../src/server/testing/test-clock.js';

const root = path.resolve(import.meta.dirname, '../..');
const serverUrl = process.env.TEST_DATABASE_URL || 'postgres://127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const SUBSCRIBERS = 40;
const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';
const ADMIN_PASSWORD = 'cluster test staff password';
/** The first owner, made at start by whichever instance gets there first. */
const ADMIN_EMAIL = 'owner@cluster.example';
const METRICS_TOKEN = 'cluster test metrics token';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-cluster-'));
const children = new Set<ChildProcess>();
let nginx: ChildProcess | undefined;
const accessLog = path.join(work, 'logs/access.log');

/** Which instance (port) served each request nginx answered since `since` (ms since the epoch). */
function servedSince(since: number): { status: number; port: number }[] {
  if (!fs.existsSync(accessLog)) return [];
  return fs
    .readFileSync(accessLog, 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .filter(([msec]) => Number(msec) * 1000 >= since)
    .map(([, status, upstreams]) => ({ status: Number(status), port: Number(upstreams?.split(':').at(-1)) }));
}

function step(text: string) {
  console.log(`\n== ${text}`);
}

async function withAdmin<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDefaultPostgresUser(serverUrl) });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

class Instance {
  child: ChildProcess | undefined;
  exited: Promise<number | null> = Promise.resolve(null);
  constructor(
    readonly name: string,
    readonly port: number,
    readonly env: Record<string, string>,
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start() {
    const log = fs.openSync(path.join(work, `${this.name}.log`), 'a');
    const child = spawn(process.execPath, [path.join(root, 'dist/server/main.js')], {
      env: { PATH: process.env.PATH ?? '', ...this.env, PORT: String(this.port) },
      stdio: ['ignore', log, log],
    });
    children.add(child);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code) => (children.delete(child), resolve(code))));
    const exitedEarly = this.exited.then((code) => {
      throw new Error(
        `${this.name} exited with ${code}: ${fs.readFileSync(path.join(work, `${this.name}.log`), 'utf8')}`,
      );
    });
    await Promise.race([
      waitFor(`${this.name} to answer`, async () => (await fetch(`${this.url}/readyz`)).status === 200),
      exitedEarly,
    ]);
    exitedEarly.catch(() => undefined);
  }

  signal(signal: NodeJS.Signals) {
    this.child?.kill(signal);
  }
}

async function main() {
  const zone = daytimeZone();
  const today = localDateAt(new Date(), zone);
  const schema = `cluster_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`create schema ${schema}`));
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const databaseUrl = url.href;
  const [nginxPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
  const publicUrl = `http://127.0.0.1:${nginxPort}`;
  const db = openDatabase({ kind: 'postgres', url: databaseUrl });
  const smtp = new SmtpTestServer();
  await smtp.start();
  try {
    step(`PostgreSQL schema ${schema}; site time zone ${zone} (it is ${today} there)`);
    await migrateToLatest(db);
    // Yesterday's poll is still live and today's is due: whichever instance starts first switches.
    await seedPoll(db, { question: 'Yesterday?', liveDate: shiftDate(today, -1) });
    const poll = await seedPoll(db, { options: ['Yes', 'No', 'Not sure'], status: 'scheduled', liveDate: today });
    const subscribers = Array.from({ length: SUBSCRIBERS }, (_, i) => `teacher${i}@example.org`);
    const joined = new Date().toISOString();
    await db
      .insertInto('subscribers')
      .values(
        subscribers.map((email) => ({
          email,
          created_at: joined,
          confirmed_at: joined,
        })),
      )
      .execute();

    const env = {
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: publicUrl,
      SITE_TIMEZONE: zone,
      VOTING_CLOSES_AT: '23:59',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      TRUST_PROXY: '1',
      // One client address sends the whole load here; the limits are tested elsewhere.
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      SHUTDOWN_DELAY_SECONDS: '1',
      // The drain check reads an instance's requests under way from /metrics.
      METRICS_TOKEN,
      LOG_LEVEL: 'info',
      SMTP_URL: smtp.url,
      MAIL_POSTAL_ADDRESS: '1 Cluster Test Way, Springfield',
    };
    const a = new Instance('a', portA, env);
    const b = new Instance('b', portB, env);
    await Promise.all([a.start(), b.start()]);

    step('the daily switch and its e-mail, once across instances (both started at once)');
    console.log(`  ${await dailySwitchOnce(db, smtp, poll.id, subscribers)}`);

    step('nginx with deploy/nginx.conf');
    await startNginx(nginxPort, [portA, portB]);
    await waitFor('nginx', async () => (await fetch(`${publicUrl}/healthz`)).status === 200);
    const asset = await assetCheck(publicUrl);
    console.log(`  ${asset}`);
    console.log(`  ${await requestsUnderWayLimit(publicUrl)}`);

    step('votes under load through nginx; instance a is SIGKILLed mid-run and started again');
    const load = await voteUnderLoad(publicUrl, poll.id, {
      durationMs: 9000,
      kill: { atMs: 2500, run: () => a.signal('SIGKILL') },
      restart: { atMs: 5500, run: () => a.start() },
    });
    const found = await withAdmin(async (client) => {
      await client.query(`set search_path = ${schema}`);
      const ids = await client.query<{ voter_id: string; status: string }>(
        'select voter_id, status from votes where poll_id = $1',
        [poll.id],
      );
      const tallies = await client.query<{ n: string; aside: number }>(
        `select coalesce(sum(vote_count), 0) as n, (select set_aside_votes from polls where id = $1) as aside
         from poll_options where poll_id = $1`,
        [poll.id],
      );
      const counted = ids.rows.filter((row) => row.status === 'counted').length;
      return {
        voters: new Set(ids.rows.map((row) => row.voter_id)),
        counted,
        setAside: ids.rows.length - counted,
        tallied: Number(tallies.rows[0]?.n),
        talliedAside: Number(tallies.rows[0]?.aside),
      };
    });
    const lost = load.acknowledged.filter((voter) => !found.voters.has(voter));
    console.log(
      `  votes sent ${load.sent}, acknowledged ${load.acknowledged.length}, found ${found.voters.size}, ` +
        `tallied ${found.tallied}, set aside ${found.talliedAside} (one client voting this fast is held as a stuffer); ` +
        `failed ${load.failed} (statuses ${JSON.stringify(load.statuses)}); ` +
        `acknowledged while a was down: ${load.acknowledgedWhileDown}`,
    );
    assert.equal(lost.length, 0, `${lost.length} acknowledged votes are missing`);
    // Only counted votes are tallied; held ones are counted as set aside (integrity/).
    assert.equal(found.tallied, found.counted, 'the tallies differ from the counted vote rows');
    assert.equal(found.talliedAside, found.setAside, 'the set-aside count differs from the held vote rows');
    assert.ok(
      load.acknowledgedWhileDown > 0,
      'no vote was acknowledged while a was down: nginx did not route around it',
    );
    assert.ok(load.acknowledged.length > 0.97 * load.sent, 'more than 3% of the votes failed');
    // nginx takes a back once its short penalty for failing is over.
    const back = Date.now();
    await waitFor('nginx to send requests to a again', async () => {
      await fetch(`${publicUrl}/api/polls/active`);
      return servedSince(back).some((line) => line.port === portA && line.status === 200);
    });

    step('instance b drains on SIGTERM');
    const drain = await drainCheck(b, publicUrl);
    console.log(`  ${drain}`);

    step('"Make Active" pressed on both instances at once');
    await b.start();
    const race = await makeActiveRace(db, a, b, publicUrl, today, poll.id);
    console.log(`  ${race}`);

    step('the write limit, shared through Redis');
    for (const instance of [a, b]) instance.signal('SIGTERM');
    assert.equal(await a.exited, 0, 'a did not stop cleanly');
    assert.equal(await b.exited, 0, 'b did not stop cleanly');
    const limited = {
      ...env,
      REDIS_URL,
      REDIS_KEY_PREFIX: `hot-take-cluster-${schema}:`,
      RATE_LIMIT_WRITES_PER_MINUTE: String(WRITE_LIMIT),
    };
    const [c, d] = [new Instance('c', portA, limited), new Instance('d', portB, limited)];
    await Promise.all([c.start(), d.start()]);
    console.log(`  ${await sharedLimit(publicUrl, [portA, portB])}`);

    for (const instance of [c, d]) instance.signal('SIGTERM');
    assert.equal(await c.exited, 0, 'c did not stop cleanly');
    assert.equal(await d.exited, 0, 'd did not stop cleanly');
    step('cluster test passed');
  } finally {
    await db.destroy();
    for (const child of children) child.kill('SIGKILL');
    if (nginx && nginx.exitCode === null) {
      const stopped = new Promise((resolve) => nginx?.once('exit', resolve));
      nginx.kill('SIGTERM'); // its workers stop with it
      await stopped;
    }
    await withAdmin((client) => client.query(`drop schema if exists ${schema} cascade`));
    await smtp.stop();
  }
}

/** A date `days` after (or before) a YYYY-MM-DD date. */
function shiftDate(date: string, days: number): string {
  const moved = new Date(`${date}T12:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}

/** Today's poll live once, and one daily e-mail per subscriber received by the SMTP server. */
async function dailySwitchOnce(
  db: ReturnType<typeof openDatabase>,
  smtp: SmtpTestServer,
  pollId: number,
  subscribers: string[],
): Promise<string> {
  const waiting = async () =>
    (await db.selectFrom('email_outbox').select('id').where('status', 'in', ['queued', 'sending']).execute()).length;
  await waitFor(
    'the outbox to empty',
    async () => (await db.selectFrom('email_outbox').select('id').execute()).length > 0 && (await waiting()) === 0,
  );
  const active = await db.selectFrom('polls').select(['id', 'status']).where('status', '=', 'active').execute();
  assert.deepEqual(active, [{ id: pollId, status: 'active' }], "today's poll is not the one active poll");
  const rows = await db.selectFrom('email_outbox').select(['kind', 'status', 'poll_id']).execute();
  assert.deepEqual(
    rows.map((row) => `${row.kind} ${row.status} ${row.poll_id}`),
    subscribers.map(() => `daily sent ${pollId}`),
    'not one daily e-mail queued per subscriber',
  );
  const perAddress = subscribers.map((address) => smtp.to(address).length);
  assert.deepEqual(
    perAddress,
    subscribers.map(() => 1),
    'a subscriber did not get exactly one daily e-mail',
  );
  return `poll #${pollId} went live once; ${smtp.delivered.length} e-mails received by the SMTP server for ${subscribers.length} subscribers, one each`;
}

const WRITE_LIMIT = 10;

/**
 * Writes from one address through nginx, which spreads them over both instances: with the
 * count in Redis, the limit holds across them (per instance, twice as many would get in).
 */
async function sharedLimit(publicUrl: string, ports: number[]): Promise<string> {
  const since = Date.now();
  const statuses: number[] = [];
  for (let i = 0; i < 3 * WRITE_LIMIT; i += 1) {
    const response = await fetch(`${publicUrl}/api/poll-suggestions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: publicUrl },
      body: JSON.stringify({ question: `Shared limit ${i}?`, options: ['Yes', 'No'] }),
    });
    statuses.push(response.status);
    await response.body?.cancel();
  }
  const accepted = statuses.filter((status) => status !== 429).length;
  const served = servedSince(since);
  const byPort = ports.map((port) => served.filter((line) => line.port === port).length);
  assert.ok(
    byPort.every((n) => n > 0),
    `nginx did not spread the writes over both instances: ${byPort.join(' / ')}`,
  );
  assert.equal(accepted, WRITE_LIMIT, `${accepted} writes got past a limit of ${WRITE_LIMIT}`);
  assert.ok(
    statuses.every((status) => status === 201 || status === 429),
    `unexpected statuses ${JSON.stringify(statuses)}`,
  );
  return `${statuses.length} writes from one address, served ${byPort.join(' / ')} by the two instances: ${accepted} accepted, ${statuses.length - accepted} refused with 429 (limit ${WRITE_LIMIT} a minute)`;
}

/** The limit on requests under way per address in deploy/nginx.conf, and the one tried here. */
const PER_ADDRESS_LIMIT = /^(\s*limit_conn hot_take_per_address )(\d+);$/m;
const PER_ADDRESS_LIMIT_IN_TEST = 200;

/**
 * As many requests from one address as the limit allows, each held under way (its body never
 * finishes; nginx's 100 Continue says it counts it), then one more: refused with 429, and once
 * they are gone the address is served again. The instances never see them: nginx reads a
 * request's whole body before it passes it on.
 */
async function requestsUnderWayLimit(publicUrl: string): Promise<string> {
  const deployed = Number(PER_ADDRESS_LIMIT.exec(fs.readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8'))?.[2]);
  assert.ok(Number.isInteger(deployed), 'deploy/nginx.conf sets no limit_conn on requests under way per address');
  assert.ok(
    deployed >= 1000,
    `deploy/nginx.conf limits requests under way per address to ${deployed}: a school needs more`,
  );
  const { port } = new URL(publicUrl);
  const held = await Promise.all(Array.from({ length: PER_ADDRESS_LIMIT_IN_TEST }, () => requestHeldUnderWay(port)));
  const refused = await fetch(`${publicUrl}/api/polls/active`);
  assert.equal(refused.status, 429, `request past the per-address limit answered ${refused.status}`);
  for (const socket of held) socket.destroy();
  await waitFor('the address to be served again', async () => (await fetch(`${publicUrl}/healthz`)).status === 200);
  return `deployed limit ${deployed} requests under way per address; with ${PER_ADDRESS_LIMIT_IN_TEST} held, the next was refused with 429`;
}

function requestHeldUnderWay(port: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () =>
      socket.write(
        'POST /api/poll-suggestions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\nExpect: 100-continue\r\n\r\n',
      ),
    );
    socket.once('error', reject);
    socket.once('data', (chunk: Buffer) => {
      if (chunk.toString().startsWith('HTTP/1.1 100 ')) resolve(socket);
      else reject(new Error(`nginx answered a held request: ${chunk.toString().split('\r\n')[0]}`));
    });
  });
}

/** nginx in the foreground, on deploy/nginx.conf with this run's ports and paths. */
async function startNginx(port: number, upstreams: number[]) {
  const site = fs.readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8');
  const servers = site.match(/^\s*server 127\.0\.0\.1:\d+( [^;]*)?;$/gm) ?? [];
  assert.ok(servers.length >= 2, 'deploy/nginx.conf has no upstream server lines');
  const options = / (max_fails[^;]*);/.exec(servers[0] ?? '')?.[1] ?? '';
  let upstreamDone = false;
  const conf = site
    .replace(/^\s*server 127\.0\.0\.1:\d+( [^;]*)?;$/gm, () => {
      if (upstreamDone) return '';
      upstreamDone = true;
      return upstreams.map((p) => `    server 127.0.0.1:${p} ${options};`).join('\n');
    })
    .replace(/^\s*listen 80;$/m, `    listen 127.0.0.1:${port};`)
    .replace(/^\s*listen \[::\]:80;$/m, '')
    .replace('/opt/teacher-hot-take/dist/client', path.join(root, 'dist/client'))
    .replace(PER_ADDRESS_LIMIT, `$1${PER_ADDRESS_LIMIT_IN_TEST};`)
    // The site's own logs go to /var/log; here the run's access log (which instance answered) stays.
    .replace(/^\s*(access|error)_log \/var\/log\/[^;]*;$/gm, '');
  fs.writeFileSync(path.join(work, 'site.conf'), conf);
  for (const dir of ['logs', 'temp']) fs.mkdirSync(path.join(work, dir), { recursive: true });
  const temp = (name: string) => `${name}_temp_path ${path.join(work, 'temp', name)};`;
  fs.writeFileSync(
    path.join(work, 'nginx.conf'),
    [
      process.getuid?.() === 0 ? 'user root;' : '',
      'worker_processes 1;',
      `pid ${path.join(work, 'nginx.pid')};`,
      `error_log ${path.join(work, 'logs/error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  include /etc/nginx/mime.types;',
      // Which instance answered: the last address nginx tried for the request.
      "  log_format cluster '$msec $status $upstream_addr';",
      `  access_log ${accessLog} cluster;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${temp(name)}`),
      `  include ${path.join(work, 'site.conf')};`,
      '}',
    ].join('\n'),
  );
  nginx = spawn(NGINX, ['-p', work, '-c', path.join(work, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** A built asset comes from disk through nginx, cached for good, gzipped when asked. */
async function assetCheck(publicUrl: string): Promise<string> {
  const js = fs.readdirSync(path.join(root, 'dist/client/assets')).find((name) => name.endsWith('.js'));
  assert.ok(js, 'no built JavaScript asset');
  const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get(`${publicUrl}/assets/${js}`, { headers: { 'accept-encoding': 'gzip' } }, resolve).on('error', reject),
  );
  response.resume();
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['cache-control']), /max-age=31536000, immutable/);
  assert.equal(response.headers['content-encoding'], 'gzip');
  return `/assets/${js}: 200, gzip, ${response.headers['cache-control']}`;
}

interface LoadPlan {
  durationMs: number;
  kill: { atMs: number; run: () => void };
  restart: { atMs: number; run: () => Promise<void> };
}

/** 20 clients voting as fast as they can, each vote from a new voter. */
async function voteUnderLoad(publicUrl: string, pollId: number, plan: LoadPlan) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
  const started = Date.now();
  let down = false;
  const acknowledged: string[] = [];
  const statuses: Record<string, number> = {};
  let sent = 0;
  let failed = 0;
  let acknowledgedWhileDown = 0;
  const body = JSON.stringify({ optionIndex: 1, voterEmail: '' });
  /** A vote from a browser without a cookie: its status, and the id the server issued (signed, in the cookie). */
  const vote = () =>
    new Promise<{ status: number; voterId: string | null }>((resolve) => {
      const request = http.request(
        `${publicUrl}/api/polls/${pollId}/vote`,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (response) => {
          response.resume();
          const cookie = (response.headers['set-cookie'] ?? []).find((c) => c.startsWith('voter_id='));
          const voterId = /^voter_id=([A-Za-z0-9_-]{22})\./.exec(cookie ?? '')?.[1] ?? null;
          response.on('end', () => resolve({ status: response.statusCode ?? 0, voterId }));
        },
      );
      request.on('error', () => resolve({ status: 0, voterId: null }));
      request.end(body);
    });
  const client = async () => {
    while (Date.now() - started < plan.durationMs) {
      sent += 1;
      const { status, voterId } = await vote();
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 201) {
        // A 201 without a cookie would be a vote nobody can find: it shows among the lost.
        acknowledged.push(voterId ?? 'a 201 without a voter cookie');
        if (down) acknowledgedWhileDown += 1;
      } else failed += 1;
    }
  };
  const kill = new Promise<void>((resolve) =>
    setTimeout(() => {
      down = true;
      plan.kill.run();
      resolve();
    }, plan.kill.atMs),
  );
  const restart = new Promise<void>((resolve, reject) =>
    setTimeout(() => {
      plan.restart.run().then(() => {
        down = false;
        resolve();
      }, reject);
    }, plan.restart.atMs),
  );
  await Promise.all([...Array.from({ length: 20 }, client), kill, restart]);
  agent.destroy();
  return { sent, acknowledged, failed, statuses, acknowledgedWhileDown };
}

/** SIGTERM: /readyz 503 first, a request under way answered, then nginx sends everything to a. */
async function drainCheck(b: Instance, publicUrl: string): Promise<string> {
  const body = '{"optionIndex":0,"voterEmail":""}';
  let finishBody = (): unknown => undefined;
  const underWay = new Promise<number>((resolve, reject) => {
    const request = http.request(
      `${b.url}/api/polls/999999/vote`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.write(body.slice(0, 3));
    finishBody = () => request.end(body.slice(3));
  });
  // Under way once b has read its headers: b's /metrics counts it beside the scrape itself.
  await waitFor('the request to be under way on b', async () => (await inFlight(b)) >= 2);
  b.signal('SIGTERM');
  let ready: Response | undefined;
  while (ready?.status !== 503) ready = await fetch(`${b.url}/readyz`);
  const readyBody = (await ready.json()) as { message: string };
  assert.match(readyBody.message, /shutting down/);
  // Requests through nginx while b drains all succeed.
  const during = await Promise.all(Array.from({ length: 20 }, () => fetch(`${publicUrl}/api/polls/active`)));
  assert.deepEqual(
    during.map((r) => r.status),
    during.map(() => 200),
  );
  finishBody();
  assert.equal(await underWay, 404, 'the request under way was not answered');
  assert.equal(await b.exited, 0, 'b did not exit cleanly after draining');
  await assert.rejects(fetch(`${b.url}/readyz`), 'b still listens after draining');
  const stopped = Date.now();
  const after = await Promise.all(Array.from({ length: 50 }, () => fetch(`${publicUrl}/api/polls/active`)));
  assert.deepEqual(
    after.map((r) => r.status),
    after.map(() => 200),
  );
  const served = servedSince(stopped);
  assert.ok(
    served.length >= 50 && served.every((line) => line.port !== b.port),
    'nginx sent a request to b after it stopped',
  );
  return (
    `readyz 503 (${readyBody.message}); 20 requests during the drain: 200; the request under way answered; ` +
    `exit 0; the ${served.length} requests after it stopped: all 200, all answered by a`
  );
}

/** Requests b has read and not yet answered, as its /metrics says (the asking scrape among them). */
async function inFlight(instance: Instance): Promise<number> {
  const response = await fetch(`${instance.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const match = /^hot_take_http_requests_in_flight (\d+)$/m.exec(await response.text());
  if (!match) throw new Error(`no in-flight figure in ${instance.name}'s /metrics`);
  return Number(match[1]);
}

async function makeActiveRace(
  db: ReturnType<typeof openDatabase>,
  a: Instance,
  b: Instance,
  publicUrl: string,
  today: string,
  current: number,
): Promise<string> {
  const first = await seedPoll(db, { status: 'scheduled', liveDate: shiftDate(today, 1) });
  const second = await seedPoll(db, { status: 'scheduled', liveDate: shiftDate(today, 2) });
  const headers = { 'content-type': 'application/json', origin: publicUrl };
  const signIn = async (instance: Instance) => {
    const response = await fetch(`${instance.url}/api/admin/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    assert.equal(response.status, 200, 'staff could not sign in');
    return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  };
  const [cookieA, cookieB] = [await signIn(a), await signIn(b)];
  // Both staff saw today's poll active and confirmed retiring it, as the admin panel says.
  const activate = (instance: Instance, cookie: string, pollId: number) =>
    fetch(`${instance.url}/api/admin/polls/${pollId}/activate`, {
      method: 'PUT',
      headers: { ...headers, cookie },
      body: JSON.stringify({ replacing: current }),
    });
  const responses = await Promise.all([activate(a, cookieA, first.id), activate(b, cookieB, second.id)]);
  const answers = await Promise.all(
    responses.map(async (r) => ({ status: r.status, body: (await r.json()) as { message?: string } })),
  );
  assert.ok(
    answers.every((answer) => answer.status < 500),
    `a 5xx answer: ${JSON.stringify(answers)}`,
  );
  for (const answer of answers.filter((x) => x.status === 409)) assert.ok(answer.body.message, '409 without a message');
  const active = await db.selectFrom('polls').select('id').where('status', '=', 'active').execute();
  assert.equal(active.length, 1, 'not exactly one active poll');
  assert.ok([first.id, second.id].includes(active[0]?.id ?? 0), 'neither poll was made active');
  assert.deepEqual(
    answers.map((answer) => answer.status).sort(),
    [200, 409],
    `not one 200 and one 409: ${JSON.stringify(answers)}`,
  );
  return `statuses ${answers.map((x) => `${x.status}${x.body.message ? ` "${x.body.message}"` : ''}`).join(', ')}; one poll active (#${active[0]?.id})`;
}

const timer = setTimeout(() => {
  console.error('the cluster test took more than 3 minutes');
  for (const child of children) child.kill('SIGKILL');
  process.exit(1);
}, 180_000);
try {
  await main();
  fs.rmSync(work, { recursive: true, force: true });
} catch (error) {
  console.error(error);
  console.error(`logs kept in ${work}`);
  process.exitCode = 1;
} finally {
  clearTimeout(timer);
}
