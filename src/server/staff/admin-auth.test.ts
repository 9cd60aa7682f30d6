import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type TestApp } from '../testing/test-app.js';
import { injectChecked } from '../testing/contract.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { createTestAppOn } from '../testing/test-app.js';
import { Visitor } from '../testing/visitor.js';

const MINUTE = 60_000;

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const signIn = (visitor: Visitor, password = TEST_ADMIN_PASSWORD, email = TEST_ADMIN_EMAIL) =>
  visitor.post('/api/admin/login', { email, password });
const session = async (visitor: Visitor) =>
  (await visitor.get('/api/admin/session')).json<{ authenticated: boolean }>().authenticated;

describe.each(testDatabaseKinds())('staff sign-in (%s)', (kind) => {
  it('refuses a wrong password and lets the right one in with a strict, HttpOnly session cookie', async () => {
    t = await createTestApp(kind);
    const staff = new Visitor(t.app);

    const wrong = await signIn(staff, 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Incorrect email or password', code: 'unauthorized' });
    expect(await session(staff)).toBe(false);

    const right = await signIn(staff);
    expect(right.statusCode).toBe(200);
    const cookie = right.cookies.find((c) => c.name === 'admin_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 12 * 3600 });
    expect(cookie?.secure).toBeFalsy();
    expect(await session(staff)).toBe(true);

    // The database keeps a hash of the token, never the token.
    const stored = await t.db.selectFrom('admin_sessions').select('token_hash').execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).not.toContain(cookie?.value ?? '');
    expect(stored[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives a new session at every sign-in and ends it at sign-out', async () => {
    t = await createTestApp(kind);
    const staff = new Visitor(t.app);
    await signIn(staff);
    const first = staff.cookies.get('admin_session');
    await signIn(staff);
    const second = staff.cookies.get('admin_session');
    expect(second).not.toBe(first);

    const out = await staff.post('/api/admin/logout');
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'admin_session')?.maxAge).toBe(0);
    const reused = new Visitor(t.app);
    reused.cookies.set('admin_session', second ?? '');
    expect(await session(reused)).toBe(false);
    expect((await reused.get('/api/admin/polls')).statusCode).toBe(401);
  });

  it('ends a session after two idle hours, and after twelve hours however busy', async () => {
    t = await createTestApp(kind);
    const staff = new Visitor(t.app);
    await signIn(staff);
    t.clock.advance(119 * MINUTE);
    expect(await session(staff)).toBe(true); // used: idle time starts again
    t.clock.advance(119 * MINUTE);
    expect(await session(staff)).toBe(true);
    t.clock.advance(121 * MINUTE);
    expect(await session(staff)).toBe(false);

    const busy = new Visitor(t.app);
    await signIn(busy);
    for (let hour = 1; hour < 12; hour += 1) {
      t.clock.advance(60 * MINUTE);
      expect(await session(busy), `hour ${hour}`).toBe(true);
    }
    t.clock.advance(60 * MINUTE);
    expect(await session(busy)).toBe(false);
  });

  it('throttles failed sign-ins per address, with a clear 429, and forgets them after 15 minutes', async () => {
    t = await createTestApp(kind, { env: { TRUST_PROXY: '1' } });
    const school = new Visitor(t.app, { 'x-forwarded-for': '203.0.113.9' });
    for (let i = 0; i < 5; i += 1) expect((await signIn(school, `guess ${i}`)).statusCode).toBe(401);

    const blocked = await signIn(school); // even the right password, while throttled
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      message: 'Too many failed sign-in attempts. Please try again in 15 minutes.',
      code: 'rate-limited',
    });
    expect(blocked.headers['retry-after']).toBe('900');

    const elsewhere = new Visitor(t.app, { 'x-forwarded-for': '198.51.100.4' });
    expect((await signIn(elsewhere)).statusCode).toBe(200);

    t.clock.advance(14 * MINUTE);
    expect((await signIn(school)).json().message).toMatch(/in 1 minute\.$/);
    t.clock.advance(2 * MINUTE);
    expect((await signIn(school)).statusCode).toBe(200);

    // Addresses are kept only as keyed hashes.
    const rows = await t.db.selectFrom('rate_limits').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain('203.0.113.9');
  });

  it('lets a correct password in within the limit, and starts the count again', async () => {
    t = await createTestApp(kind);
    const staff = new Visitor(t.app);
    for (let i = 0; i < 4; i += 1) expect((await signIn(staff, `guess ${i}`)).statusCode).toBe(401);
    expect((await signIn(staff)).statusCode).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await signIn(staff, `guess ${i}`)).statusCode).toBe(401);
    expect((await signIn(staff, 'guess 5')).statusCode).toBe(429);
  });

  it('checks no more guesses than the limit from a burst of 200 at once', async () => {
    t = await createTestApp(kind);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => signIn(new Visitor(t!.app), `guess ${i}`)));
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(5);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(195);
  });

  it('believes only the proxies it trusts: a client writing its own X-Forwarded-For changes nothing', async () => {
    /**
     * Eight wrong guesses arriving from `remoteAddress`, the client claiming another address
     * each time in X-Forwarded-For (`forwardedAfter` is what follows it there): their answers.
     */
    const eightGuesses = async (remoteAddress: string, forwardedAfter: string) => {
      const answers = [];
      for (let i = 0; i < 8; i += 1) {
        const response = await injectChecked(t!.app, {
          method: 'POST',
          url: '/api/admin/login',
          remoteAddress,
          headers: { 'x-forwarded-for': `198.51.100.${i}${forwardedAfter}` },
          payload: { email: TEST_ADMIN_EMAIL, password: `guess ${i}` },
        });
        answers.push(response.statusCode);
      }
      return answers;
    };

    // One proxy in front (TRUST_PROXY=1): it appends the address it saw, and only that is believed.
    t = await createTestApp(kind, { env: { TRUST_PROXY: '1' } });
    expect(await eightGuesses('10.0.0.2', ', 203.0.113.9')).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    await t.close();

    // The proxies named (TRUST_PROXY=addresses): a request from anywhere else is its own address.
    t = await createTestApp(kind, { env: { TRUST_PROXY: '10.0.0.2' } });
    expect(await eightGuesses('192.0.2.50', '')).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it('refuses a sign-in posted from another site', async () => {
    t = await createTestApp(kind);
    const response = await new Visitor(t.app, { origin: 'https://evil.example' }).post('/api/admin/login', {
      email: TEST_ADMIN_EMAIL,
      password: TEST_ADMIN_PASSWORD,
    });
    expect(response.statusCode).toBe(403);
    expect(response.cookies).toEqual([]);
  });

  it('validates the sign-in body', async () => {
    t = await createTestApp(kind);
    const email = TEST_ADMIN_EMAIL;
    for (const payload of [{ email }, { email, password: '' }, { email, password: 42 }]) {
      const response = await new Visitor(t.app).post('/api/admin/login', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Please enter your password.');
    }
    for (const payload of [{ password: 'x' }, { email: '', password: 'x' }, { email: 'nobody', password: 'x' }]) {
      const response = await new Visitor(t.app).post('/api/admin/login', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/email address/);
    }
  });
});

describe.each(testDatabaseKinds())('the generated admin password (%s)', (kind) => {
  it('is made once, shown once, stored only as a hash, shared by every instance, and makes the owner once', async () => {
    const database = await createTestDatabase(kind);
    const shown: string[] = [];
    const noOwner = { ADMIN_PASSWORD: '', ADMIN_EMAIL: '' };
    const first = await createTestAppOn(database, {
      keepDatabase: true,
      env: noOwner,
      announceAdminPassword: (password) => shown.push(password),
    });
    const second = await createTestAppOn(database, { env: noOwner, announceAdminPassword: (p) => shown.push(p) });
    try {
      expect(shown).toHaveLength(1);
      const [password = ''] = shown;
      expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
      const settings = await first.db.selectFrom('settings').selectAll().execute();
      expect(JSON.stringify(settings)).not.toContain(password);
      expect(settings.find((s) => s.name === 'admin_password_hash')?.value).toMatch(/^scrypt\$/);

      const visitor = new Visitor(first.app);
      expect((await visitor.get('/api/admin/session')).json()).toEqual({ authenticated: false, needsOwner: true });
      const owner = { email: 'head@school.example', displayName: 'Ms. Head', password: 'a long owner passphrase' };
      const wrong = await visitor.post('/api/admin/setup', { ...owner, adminPassword: 'not it at all' });
      expect(wrong.statusCode).toBe(401);
      const made = await visitor.post('/api/admin/setup', { ...owner, adminPassword: password });
      expect(made.statusCode).toBe(200);
      expect(made.json()).toMatchObject({ authenticated: true, staff: { email: owner.email, role: 'owner' } });
      // Once: the other instance refuses a second owner from the same password.
      const again = await new Visitor(second.app).post('/api/admin/setup', {
        ...owner,
        email: 'x@school.example',
        adminPassword: password,
      });
      expect(again.statusCode).toBe(409);
      expect((await signIn(new Visitor(second.app), owner.password, owner.email)).statusCode).toBe(200);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

// Instances share the count through the database. (Two SQLite connections in one process
// cannot stand in for two servers: see email.test.ts.)
if (testDatabaseKinds().includes('postgres')) {
  it('checks no more guesses than the limit from a burst spread over two instances on one PostgreSQL database', async () => {
    const database = await createTestDatabase('postgres');
    const first = await createTestAppOn(database, { keepDatabase: true });
    const second = await createTestAppOn(database);
    try {
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => signIn(new Visitor((i % 2 === 0 ? first : second).app), `guess ${i}`)),
      );
      expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(5);
      expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(195);
    } finally {
      await first.close();
      await second.close();
    }
  });
}
