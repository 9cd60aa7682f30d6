import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { createTestClient, type TestClient } from '../testing/test-client.js';
import { Visitor } from '../testing/visitor.js';
import type { SiteConfig } from '../../shared/site-config.js';
import { INTERNAL_ERROR_MESSAGE } from './errors.js';
import { loggableUrl, scrubEmails } from './logging.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The built client's stand-in, for the tests that ask for pages. */
let client: TestClient;
let clientDir: string;
beforeAll(() => {
  client = createTestClient();
  clientDir = client.dir;
});
afterAll(() => client.remove());

describe('security headers', () => {
  it('gives pages a strict Content-Security-Policy and the usual hardening headers', async () => {
    t = await createTestApp('sqlite', { clientDir });
    const response = await new Visitor(t.app).get('/');
    const csp = String(response.headers['content-security-policy']);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it("isolates the staff's page from other sites' windows, and leaves public pages out of it (a new renderer each time would block a phone)", async () => {
    t = await createTestApp('sqlite', { clientDir });
    const visitor = new Visitor(t.app);
    for (const url of ['/admin', '/admin?tab=polls']) {
      expect((await visitor.get(url)).headers['cross-origin-opener-policy'], url).toBe('same-origin');
    }
    for (const url of ['/', '/faq', '/?view=archive', '/administrator', '/api/admin/polls']) {
      expect((await visitor.get(url)).headers['cross-origin-opener-policy'], url).toBeUndefined();
    }
  });

  it('gives API answers the short API set, and forbids caching them', async () => {
    t = await createTestApp('sqlite');
    for (const url of ['/api/polls/active', '/api/polls?x=1', '/api/nothing', '/healthz']) {
      const response = await new Visitor(t.app).get(url);
      expect(response.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it('adds HSTS, and upgrades page requests, when the site is served over HTTPS', async () => {
    t = await createTestApp('sqlite', { clientDir, env: { PUBLIC_URL: 'https://hottake.example.org' } });
    const page = await new Visitor(t.app).get('/');
    expect(page.headers['strict-transport-security']).toContain('max-age=31536000');
    expect(String(page.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    const api = await new Visitor(t.app).get('/healthz');
    expect(api.headers['strict-transport-security']).toContain('max-age=31536000');
  });
});

describe('errors', () => {
  it('takes API paths with a trailing slash too', async () => {
    t = await createTestApp('sqlite');
    expect((await new Visitor(t.app).get('/api/polls/')).statusCode).toBe(200);
  });

  it('answers unknown API paths and methods with JSON 404s', async () => {
    t = await createTestApp('sqlite');
    const unknown = await new Visitor(t.app).get('/api/nothing-here');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/json');
    expect(unknown.json()).toEqual({ message: 'There is no GET /api/nothing-here here.', code: 'not-found' });
    const wrongMethod = await new Visitor(t.app).request({ method: 'DELETE', url: '/api/polls' });
    expect(wrongMethod.statusCode).toBe(404);
    expect(wrongMethod.json().message).toBe('There is no DELETE /api/polls here.');
  });

  it('answers an overlong or undecodable address with a JSON message that does not echo it', async () => {
    t = await createTestApp('sqlite');
    const long = await new Visitor(t.app).get(`/api/polls/number/${'1'.repeat(300)}`);
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ message: 'The address is too long.', code: 'bad-request' });
    const bad = await new Visitor(t.app).get('/api/polls/number/%E0%A4%A');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'The address is not valid.', code: 'bad-request' });
  });

  it('hides the details of a fault behind a plain 500 and keeps running', async () => {
    t = await createTestApp('sqlite');
    await seedPoll(t.db);
    await t.db.schema.dropTable('poll_options').execute(); // a fault nobody expects

    const response = await new Visitor(t.app).get('/api/polls/active');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: INTERNAL_ERROR_MESSAGE, code: 'internal' });
    expect(response.body).not.toMatch(/poll_options|sqlite|stack/i);

    expect((await new Visitor(t.app).get('/healthz')).statusCode).toBe(200);
  });
});

describe('GET /healthz', () => {
  it('is 200 while the database answers and 503 when it does not', async () => {
    t = await createTestApp('sqlite');
    const ok = await new Visitor(t.app).get('/healthz');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok' });

    // Close the database under the running app.
    const { app, db } = t;
    await db.destroy();
    const down = await new Visitor(app).get('/healthz');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ message: 'The database is not reachable.', code: 'unavailable' });
    await app.close();
    t = undefined;
  });
});

describe.each(testDatabaseKinds())('rate limits on writes (%s)', (kind) => {
  it('refuses a fourth write a minute from one address with 429, storing nothing', async () => {
    t = await createTestApp(kind, { env: { RATE_LIMIT_WRITES_PER_MINUTE: '3' } });
    const poll = await seedPoll(t.db);
    const visitor = new Visitor(t.app);
    expect((await visitor.vote(poll.id, 0)).statusCode).toBe(201);
    expect((await visitor.post('/api/subscribe', { email: 'a@example.org' })).statusCode).toBe(200);
    expect((await visitor.post(`/api/polls/${poll.id}/update-vote`, { email: 'a@example.org' })).statusCode).toBe(200);
    const before = await snapshotDatabase(t.db);

    const refused = await visitor.post('/api/poll-suggestions', { question: 'Q?', options: ['A', 'B'] });

    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many requests from your network\. Please wait .+ and try again\.$/);
    expect(await snapshotDatabase(t.db)).toEqual(before);
    // Reading is never limited.
    for (let i = 0; i < 5; i += 1) expect((await visitor.get('/api/polls/active')).statusCode).toBe(200);
  });
});

describe('rate limit settings', () => {
  it('counts each client address separately behind a trusted proxy', async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_WRITES_PER_MINUTE: '1', TRUST_PROXY: '1' } });
    const suggestion = { question: 'Q?', options: ['A', 'B'] };
    const schoolA = new Visitor(t.app, { 'x-forwarded-for': '203.0.113.7' });
    const schoolB = new Visitor(t.app, { 'x-forwarded-for': '198.51.100.23' });
    expect((await schoolA.post('/api/poll-suggestions', suggestion)).statusCode).toBe(201);
    expect((await schoolA.post('/api/poll-suggestions', suggestion)).statusCode).toBe(429);
    expect((await schoolB.post('/api/poll-suggestions', suggestion)).statusCode).toBe(201);
  });

  it('cannot be escaped by writing X-Forwarded-For: only what the trusted proxy appended counts', async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_WRITES_PER_MINUTE: '3', TRUST_PROXY: '1' } });
    const answers = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/poll-suggestions',
        headers: { 'x-forwarded-for': `192.0.2.${i}, 203.0.113.7` },
        payload: { question: `Q${i}?`, options: ['A', 'B'] },
      });
      answers.push(response.statusCode);
    }
    expect(answers).toEqual([201, 201, 201, 429, 429, 429]);
  });

  it('is off with 0', async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_WRITES_PER_MINUTE: '0' } });
    const visitor = new Visitor(t.app);
    for (let i = 0; i < 30; i += 1) {
      expect(
        (await visitor.post('/api/poll-suggestions', { question: `Q${i}?`, options: ['A', 'B'] })).statusCode,
      ).toBe(201);
    }
  });
});

describe('logs', () => {
  it('are JSON lines, one per refused or failed request, that never contain an e-mail address', async () => {
    const lines: string[] = [];
    t = await createTestApp('sqlite', { logStream: { write: (line) => void lines.push(line) } });
    const poll = await seedPoll(t.db);
    const visitor = new Visitor(t.app);
    await visitor.vote(poll.id, 0, 'first.person@example.org');
    await visitor.get('/api/polls/active?email=first.person%40example.org');
    await visitor.post('/api/stats', { voterEmail: 'first.person@example.org' });
    await visitor.post('/api/subscribe', { email: 'second.person@example.org', pollId: 999 });
    await visitor.post('/api/subscribe', { email: 'third.person@example' });
    await visitor.get('/api/polls/number/x?email=broken@');
    await visitor.get('/api/x/fourth.person@example.org');
    // A fault whose error message carries an address.
    await t.db.schema.dropTable('subscribers').execute();
    await visitor.post('/api/subscribe', { email: 'fifth.person@example.org' });

    const log = lines.join('');
    expect(log).not.toMatch(/person@|person%40/i);
    const requests = lines
      .map((line) => JSON.parse(line) as { msg: string })
      .filter((entry) => entry.msg === 'request completed');
    // Quick successes are not logged at info; refusals and failures are, one line each.
    expect(requests.map((r) => (r as unknown as { status: number }).status)).toEqual([404, 400, 400, 404, 500]);
    expect(requests[2]).toMatchObject({ method: 'GET', url: '/api/polls/number/x?…', status: 400 });
    expect(requests.at(-1)).toMatchObject({ method: 'POST', url: '/api/subscribe', status: 500 });
    expect(lines.some((line) => (JSON.parse(line) as { msg: string }).msg === 'request failed')).toBe(true);
  });

  it('log every request at LOG_LEVEL=debug', async () => {
    const lines: string[] = [];
    t = await createTestApp('sqlite', {
      env: { LOG_LEVEL: 'debug' },
      logStream: { write: (line) => void lines.push(line) },
    });
    await new Visitor(t.app).get('/api/polls/active?email=pat%40example.org');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.find((e) => e.msg === 'request completed')).toMatchObject({
      level: 20,
      method: 'GET',
      url: '/api/polls/active?…',
      status: 200,
    });
    expect(lines.join('')).not.toMatch(/pat@|pat%40/);
  });
});

describe('log scrubbing', () => {
  it('masks addresses, plain and URL-encoded, and drops the query', () => {
    expect(scrubEmails('no such user: Pat.Doe+x@Example.org (again pat@example.org)')).toBe(
      'no such user: [email] (again [email])',
    );
    expect(loggableUrl('/api/polls/active?email=pat%40example.org&x=1')).toBe('/api/polls/active?…');
    expect(loggableUrl('/api/u/pat%40example.org?pat@example.org=1')).toBe('/api/u/[email]?…');
    expect(loggableUrl('/api/polls')).toBe('/api/polls');
  });
});

describe('the web app', () => {
  it('writes the site configuration and a fresh style nonce into every page', async () => {
    t = await createTestApp('sqlite', {
      clientDir,
      env: {
        SITE_NAME: 'Hot "Takes" <script>alert(1)</script> & co',
        BRAND_URL: 'https://teaching.example.org',
        PUBLIC_URL: 'https://hottake.example.org',
      },
    });
    const first = await new Visitor(t.app).get('/');
    const second = await new Visitor(t.app).get('/faq');
    const nonceOf = (html: string) =>
      /<script type="application\/json" id="csp-nonce">"([^"]+)"<\/script>/.exec(html)?.[1];
    const nonce = nonceOf(first.body);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonceOf(second.body)).not.toBe(nonce);
    expect(String(first.headers['content-security-policy'])).toContain(`style-src 'self' 'nonce-${nonce}'`);

    expect(first.body).toContain('<title>Hot &quot;Takes&quot; &lt;script&gt;alert(1)&lt;/script&gt; &amp; co</title>');
    const json = /<script type="application\/json" id="site-config">(.*?)<\/script>/.exec(first.body)?.[1] ?? '';
    expect(json).not.toContain('</script');
    const { zoneOffsets, ...config } = JSON.parse(json) as SiteConfig;
    expect(config).toEqual({
      siteName: 'Hot "Takes" <script>alert(1)</script> & co',
      publicUrl: 'https://hottake.example.org',
      brandName: null,
      brandUrl: 'https://teaching.example.org/',
      contactEmail: null,
      timeZone: 'America/New_York',
      votingClosesAt: '20:00',
    });
    // New York's offsets for four years, so the browser reads the site's clock without Intl.
    expect(zoneOffsets?.timeZone).toBe('America/New_York');
    expect(zoneOffsets?.changes.length).toBeGreaterThanOrEqual(8);
    expect(new Set(zoneOffsets?.changes.map(([, offset]) => offset / 3600))).toEqual(new Set([-5, -4]));
    // The template itself is never served as a file.
    expect((await new Visitor(t.app).get('/index.html')).body).not.toContain('__CSP_NONCE__');
  });

  it('sends every page compressed to a browser that takes Brotli or gzip, its nonce the same in the page and the CSP', async () => {
    t = await createTestApp('sqlite', { clientDir });
    await seedPoll(t.db, {});
    const nonceOf = (html: string) =>
      /<script type="application\/json" id="csp-nonce">"([^"]+)"<\/script>/.exec(html)?.[1] ?? 'none';
    const visitor = new Visitor(t.app);
    for (const url of ['/', '/faq', '/poll-1', '/poll-99']) {
      const plain = await visitor.get(url);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.headers.vary, url).toContain('accept-encoding');
      for (const [acceptEncoding, coding, decode] of [
        ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
        ['gzip, deflate', 'gzip', gunzipSync],
        ['br;q=0.5, gzip', 'gzip', gunzipSync],
      ] as const) {
        const compressed = await visitor.request({
          method: 'GET',
          url,
          headers: { 'accept-encoding': acceptEncoding },
        });
        expect(compressed.statusCode, url).toBe(plain.statusCode);
        expect(compressed.headers['content-encoding'], url).toBe(coding);
        expect(compressed.headers.vary, url).toContain('accept-encoding');
        expect(compressed.rawPayload.length, url).toBeLessThan(plain.rawPayload.length / 2);

        const html = decode(compressed.rawPayload).toString();
        const nonce = nonceOf(html);
        expect(nonce, url).toMatch(/^[A-Za-z0-9+/]{22}==$/);
        expect(nonce, url).not.toBe(nonceOf(plain.body));
        expect(String(compressed.headers['content-security-policy']), url).toContain(`'nonce-${nonce}'`);
        expect(html.replaceAll(nonce, 'N'), url).toBe(plain.body.replaceAll(nonceOf(plain.body), 'N'));
      }
    }
  });

  it('answers every screen of the app with 200 and the page', async () => {
    t = await createTestApp('sqlite', { clientDir });
    await seedPoll(t.db, { status: 'past', liveDate: '2026-11-19' });
    await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20' });
    await seedPoll(t.db, {});
    for (const url of [
      '/',
      '/?view=archive',
      '/admin',
      '/faq',
      '/faq/',
      '/terms',
      '/privacy',
      '/poll-1',
      '/poll-2/',
      '/poll-3?ref=x',
    ]) {
      const response = await new Visitor(t.app).get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.body, url).toContain('<div id="root">');
    }
  });

  it('answers other paths with the page and a 404, so the app shows its 404 screen', async () => {
    t = await createTestApp('sqlite', { clientDir });
    for (const url of [
      '/nope',
      '/poll-0',
      '/poll-1',
      '/poll-99999999999',
      '/poll-abc',
      '/poll-',
      '/poll-1/extra',
      '/faq/deeper',
      '/assets/missing.js',
    ]) {
      const response = await new Visitor(t.app).get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).toContain('<div id="root">');
    }
  });

  it('serves hashed assets to be cached for good and other files to be revalidated', async () => {
    t = await createTestApp('sqlite', { clientDir });
    const script = await new Visitor(t.app).get('/assets/index-3f2a1b.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await new Visitor(t.app).get('/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('without a built client, serves the API and says what to do for pages', async () => {
    t = await createTestApp('sqlite', { clientDir: null });
    const page = await new Visitor(t.app).get('/');
    expect(page.statusCode).toBe(404);
    expect(page.json().message).toMatch(/npm run build/);
  });
});

describe('GET /readyz', () => {
  it('is 200 with the problems served through, and 503 saying why once the instance drains', async () => {
    t = await createTestApp('sqlite');
    const ready = await new Visitor(t.app).get('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', warnings: [] });

    t.app.readiness.warn('redis', 'Redis is unreachable.');
    expect((await new Visitor(t.app).get('/readyz')).json()).toEqual({
      status: 'ready',
      warnings: ['Redis is unreachable.'],
    });

    t.app.readiness.drain('This instance is shutting down (SIGTERM).');
    const draining = await new Visitor(t.app).get('/readyz');
    expect(draining.statusCode).toBe(503);
    expect(draining.headers.connection).toBe('close');
    expect(draining.json()).toEqual({
      status: 'draining',
      code: 'unavailable',
      message: 'This instance is shutting down (SIGTERM).',
      warnings: ['Redis is unreachable.'],
    });
    // Liveness is another question: the process is fine.
    expect((await new Visitor(t.app).get('/healthz')).statusCode).toBe(200);
  });
});
