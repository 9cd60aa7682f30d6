/**
 * The sign-in guard (issue 34): nobody can lock a person out by guessing at their account, a
 * guess is slowed per network and per person before any password is hashed, failures are counted
 * for the window and never written to the audit log, and a flood of passkey answers or options
 * leaves (almost) nothing behind.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffInvite } from '../../shared/api.js';
import { readStaffLink } from '../../shared/staff-links.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { SoftwareAuthenticator } from '../testing/software-authenticator.js';
import { createTestApp, createTestAppWithMail, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { injectChecked } from '../testing/contract.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { STAFF_DOOR_PER_WINDOW } from './admin-auth.routes.js';
import { createAdminAuth } from './admin-auth.service.js';
import { hashPassword, verifyPassword } from './password.js';
import type * as PasswordModule from './password.js';

// The real scrypt runs; the test only counts how often it is asked to.
vi.mock('./password.js', async (importOriginal) => {
  const real = await importOriginal<typeof PasswordModule>();
  return { ...real, hashPassword: vi.fn(real.hashPassword), verifyPassword: vi.fn(real.verifyPassword) };
});

const MINUTE = 60_000;
const NEW_PASSWORD = 'a long enough new password';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Behind one trusted proxy (TRUST_PROXY=1), each browser from the address it names. */
const from = (app: TestApp, address: string) =>
  new Visitor(app.app, { origin: app.config.site.publicUrl, 'x-forwarded-for': address });
const signIn = (app: TestApp, address: string, password: string, email = TEST_SIGN_IN.email) =>
  from(app, address).post('/api/admin/login', { email, password });
/** Wrong passwords for the owner, one from each of `count` addresses (by default four times ADMIN_LOGIN_ATTEMPTS). */
async function attack(app: TestApp, prefix = '198.51.100', count = 20) {
  for (let n = 0; n < count; n += 1)
    expect((await signIn(app, `${prefix}.${n}`, `wrong guess ${n}`)).statusCode, `guess ${n}`).toBe(401);
}
const auditRows = (app: TestApp) => app.db.selectFrom('audit_log').selectAll().execute();
const hashes = () => vi.mocked(hashPassword).mock.calls.length + vi.mocked(verifyPassword).mock.calls.length;

/** A one-time sign-in link's token, as `npm run staff -- sign-in-link` makes one. */
async function signInLinkToken(app: TestApp) {
  const auth = createAdminAuth({
    db: app.db,
    clock: app.clock,
    config: app.config,
    legacyPasswordHash: null,
    keyedHash: (v) => Promise.resolve(v),
    secureCookies: false,
  });
  return (await auth.signInLink())?.token ?? '';
}

describe.each(testDatabaseKinds())('the sign-in guard (%s)', (kind) => {
  it('lets the owner in after 20 wrong passwords from 20 addresses; a network that guessed waits, unchecked', async () => {
    t = await createTestApp(kind, { env: { TRUST_PROXY: '1' } });
    await attack(t);
    // The right password from a network that has not been guessing: in, not 429.
    expect((await signIn(t, '203.0.113.7', TEST_SIGN_IN.password)).statusCode).toBe(200);
    // A wrong one from another fresh network is checked, and refused as wrong.
    expect((await signIn(t, '203.0.113.8', 'yet another guess')).statusCode).toBe(401);
    // A network that has already guessed at this account waits, its password not even checked.
    const before = hashes();
    const again = await signIn(t, '198.51.100.3', TEST_SIGN_IN.password);
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toBe('Too many failed sign-in attempts. Please try again in 15 minutes.');
    expect(hashes()).toBe(before);
    // Another person is not slowed by the guesses at this one.
    expect((await signIn(t, '198.51.100.3', 'wrong', 'someone.else@school.example')).statusCode).toBe(401);
    t.clock.advance(15 * MINUTE);
    expect((await signIn(t, '198.51.100.3', TEST_SIGN_IN.password)).statusCode).toBe(200);
  });

  it('keeps a passkey and a one-time link working under attack, even from a network whose tries are spent', async () => {
    t = await createTestApp(kind, { env: { TRUST_PROXY: '1' } });
    const { origin, hostname } = new URL(t.config.site.publicUrl);
    const owner = from(t, '192.0.2.1');
    expect((await owner.post('/api/admin/login', TEST_SIGN_IN)).statusCode).toBe(200);
    const authenticator = new SoftwareAuthenticator(origin, hostname);
    const options = (await owner.post('/api/admin/passkeys/register/options')).json<{
      challenge: string;
      user: { id: string };
    }>();
    expect(
      (await owner.post('/api/admin/passkeys', { name: 'Laptop', response: authenticator.register(options) }))
        .statusCode,
    ).toBe(201);

    await attack(t);
    const home = '198.51.100.0';
    for (let i = 0; i < 5; i += 1) await signIn(t, home, `more guesses ${i}`);
    expect((await signIn(t, home, TEST_SIGN_IN.password)).statusCode).toBe(429);

    const browser = from(t, home);
    const challenge = (await browser.post('/api/admin/passkeys/sign-in/options')).json<{ challenge: string }>();
    const withPasskey = await browser.post('/api/admin/passkeys/sign-in', {
      response: authenticator.authenticate(challenge),
    });
    expect(withPasskey.statusCode).toBe(200);
    const withLink = await from(t, home).post('/api/admin/sign-in-link', { token: await signInLinkToken(t) });
    expect(withLink.statusCode).toBe(200);
    expect(origin).toBe(t.config.site.publicUrl);
  });

  it('tells the person by e-mail, once a day, through the outbox, when their account comes under attack', async () => {
    // Two tries per network: an attack is 8 wrong passwords.
    const mailed = await createTestAppWithMail(kind, { env: { TRUST_PROXY: '1', ADMIN_LOGIN_ATTEMPTS: '2' } });
    t = mailed;
    const alerts = () => mailed.db.selectFrom('email_outbox').select('id').where('kind', '=', 'staff-alert').execute();
    await attack(mailed, '198.51.100', 7);
    expect(await alerts()).toHaveLength(0);
    await signIn(mailed, '198.51.100.7', 'the eighth guess');
    expect(await alerts()).toHaveLength(1);
    // Guessing on, and at an account nobody has: no more mail.
    await attack(mailed, '203.0.113', 8);
    for (let n = 0; n < 10; n += 1) await signIn(mailed, `192.0.2.${n}`, 'wrong', 'nobody@school.example');
    expect(await alerts()).toHaveLength(1);
    expect(await mailed.app.jobs.sendMail()).toMatchObject({ sent: 1 });
    const [mail, ...more] = mailed.smtp.to(TEST_SIGN_IN.email);
    expect(more).toEqual([]);
    expect(mail?.parsed.subject).toBe('Someone is trying to sign in to your Teacher Hot Take account');
    expect(mail?.parsed.text).toContain('with a passkey, or with your password from your own network');
    expect(mail?.parsed.text).not.toMatch(/198\.51\.100|203\.0\.113/);

    // Another attack later that day: no second e-mail; the next day's: one more.
    mailed.clock.advance(60 * MINUTE);
    await attack(mailed, '192.0.2', 8);
    expect(await alerts()).toHaveLength(1);
    mailed.clock.advance(24 * 60 * MINUTE);
    await attack(mailed, '198.51.100', 8);
    expect(await alerts()).toHaveLength(2);
  });

  it('counts failed sign-ins per network for the window only, as keyed hashes, and writes none to the audit log', async () => {
    t = await createTestApp(kind, { env: { TRUST_PROXY: '1' } });
    const logged = (await auditRows(t)).length;
    for (let i = 0; i < 3; i += 1) await signIn(t, '203.0.113.9', `guess ${i}`);
    await from(t, '203.0.113.9').post('/api/admin/passkeys/sign-in', { response: { id: 'made-up' } });
    expect(await auditRows(t)).toHaveLength(logged);
    const counts = await t.db.selectFrom('rate_limits').selectAll().where('key', 'like', 'sign-in%').execute();
    expect(counts.length).toBeGreaterThan(0);
    expect(JSON.stringify(counts)).not.toMatch(/203\.0\.113|owner@/);

    t.clock.advance(15 * MINUTE + 1000);
    await t.app.jobs.housekeeping();
    expect(await t.db.selectFrom('rate_limits').selectAll().where('key', 'like', 'sign-in%').execute()).toEqual([]);
  });

  it('counts an IPv6 /48 as one client too: four times the limit across all its /64s', async () => {
    t = await createTestApp(kind);
    const app = t;
    const guess = (address: string, n: number) =>
      injectChecked(app.app, {
        method: 'POST',
        url: '/api/admin/login',
        remoteAddress: address,
        payload: { email: `nobody${n}@school.example`, password: 'a wrong guess' },
      });
    const answers = [];
    for (let n = 0; n < 21; n += 1) answers.push((await guess(`2001:db8:7:${n.toString(16)}::1`, n)).statusCode);
    expect(answers).toEqual([...Array<number>(20).fill(401), 429]);
    expect((await guess('2001:db8:8::1', 99)).statusCode).toBe(401);
  });

  it('hashes no password before the throttle, the old admin password and the invite are checked', async () => {
    const shown: string[] = [];
    t = await createTestApp(kind, {
      env: { TRUST_PROXY: '1', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' },
      announceAdminPassword: (password) => shown.push(password),
    });
    const setup = (address: string, adminPassword: string) =>
      from(t!, address).post('/api/admin/setup', {
        adminPassword,
        email: 'head@school.example',
        displayName: 'Head',
        password: NEW_PASSWORD,
      });
    vi.mocked(hashPassword).mockClear();
    expect((await setup('203.0.113.1', 'not the old password')).statusCode).toBe(401);
    expect(vi.mocked(hashPassword)).not.toHaveBeenCalled();
    for (let i = 0; i < 4; i += 1) await setup('203.0.113.1', `guess ${i}`);
    const before = hashes();
    expect((await setup('203.0.113.1', shown[0] ?? '')).statusCode).toBe(429);
    expect(hashes()).toBe(before);
    expect((await setup('203.0.113.2', shown[0] ?? '')).statusCode).toBe(200);
    expect(vi.mocked(hashPassword)).toHaveBeenCalledTimes(1);

    // An invite: the token is looked up before the new password is hashed.
    const owner = from(t, '203.0.113.2');
    expect(
      (await owner.post('/api/admin/login', { email: 'head@school.example', password: NEW_PASSWORD })).statusCode,
    ).toBe(200);
    const invited = await owner.post('/api/admin/invites', { email: 'new@school.example', role: 'editor' });
    const token = readStaffLink(new URL(invited.json<StaffInvite & { link: string }>().link).hash)?.token ?? '';
    vi.mocked(hashPassword).mockClear();
    const accept = (with_: string) =>
      from(t!, '192.0.2.9').post('/api/admin/invites/accept', {
        token: with_,
        displayName: 'N',
        password: NEW_PASSWORD,
      });
    expect((await accept('no-such-invite')).statusCode).toBe(404);
    expect(vi.mocked(hashPassword)).not.toHaveBeenCalled();
    expect((await accept(token)).statusCode).toBe(201);
    expect(vi.mocked(hashPassword)).toHaveBeenCalledTimes(1);
  });

  // A flood is long by nature: 10,000 requests take 7 s on SQLite on an idle test machine.
  it(
    'answers a flood of 10,000 requests on every way in from one network with 429 past the limit, writing no row',
    { timeout: 120_000 },
    async () => {
      t = await createTestApp(kind);
      const before = await snapshotDatabase(t.db);
      const app = t;
      const token = { token: 'A'.repeat(43) };
      const ways: [string, object][] = [
        ['/api/admin/passkeys/sign-in', { response: { id: 'made-up', response: { clientDataJSON: 'e30' } } }],
        ['/api/admin/passkeys/sign-in/options', {}],
        ['/api/admin/login', { email: TEST_SIGN_IN.email, password: 'a wrong guess here' }],
        [
          '/api/admin/setup',
          { adminPassword: 'x', email: 'new@school.example', displayName: 'N', password: 'p'.repeat(16) },
        ],
        ['/api/admin/invites/accept', { ...token, displayName: 'N', password: 'a long new password' }],
        ['/api/admin/invites/lookup', token],
        ['/api/admin/invites/passkey-options', { ...token, displayName: 'N' }],
        ['/api/admin/sign-in-link', token],
      ];
      const request = (i: number) => {
        const [url, payload] = ways[i % ways.length]!;
        return injectChecked(app.app, { method: 'POST', url, payload });
      };
      vi.mocked(hashPassword).mockClear();
      vi.mocked(verifyPassword).mockClear();
      const statuses = new Map<number, number>();
      for (let start = 0; start < 10_000; start += 200) {
        for (const answer of await Promise.all(Array.from({ length: 200 }, (_, i) => request(start + i))))
          statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
      }
      expect(statuses.get(429)).toBe(10_000 - STAFF_DOOR_PER_WINDOW);
      expect(statuses.get(500)).toBeUndefined();
      // No password hashed past the limit: at most one scrypt per request let in.
      const hashed = vi.mocked(hashPassword).mock.calls.length + vi.mocked(verifyPassword).mock.calls.length;
      expect(hashed).toBeLessThanOrEqual(STAFF_DOOR_PER_WINDOW);
      // The options asked for before the limit: their challenges, at most the network's 10.
      const after = await snapshotDatabase(t.db);
      expect(after.webauthn_challenges!.length).toBeLessThanOrEqual(10);
      expect({ ...after, webauthn_challenges: [] }).toEqual({ ...before, webauthn_challenges: [] });
    },
  );

  it('keeps each network only its newest 10 sign-in challenges, for two minutes', async () => {
    t = await createTestApp(kind, { env: { TRUST_PROXY: '1' } });
    const challenges = () => t!.db.selectFrom('webauthn_challenges').select(['challenge', 'network']).execute();
    const flood = from(t, '203.0.113.50');
    const asked: string[] = [];
    let refused = 0;
    for (let i = 0; i < 300; i += 1) {
      // A millisecond apart: "newest" is by expiry, and ties (one millisecond) fall either way.
      t.clock.advance(1);
      const answer = await flood.post('/api/admin/passkeys/sign-in/options');
      if (answer.statusCode === 429) refused += 1;
      else asked.push(answer.json<{ challenge: string }>().challenge);
    }
    // 30 answered (the network's limit on the ways in), the newest 10 of their challenges kept.
    expect([asked.length, refused]).toEqual([STAFF_DOOR_PER_WINDOW, 300 - STAFF_DOOR_PER_WINDOW]);
    expect((await challenges()).map((row) => row.challenge).sort()).toEqual(asked.slice(-10).sort());
    // Another network's are its own.
    for (let i = 0; i < 3; i += 1) await from(t, '198.51.100.50').post('/api/admin/passkeys/sign-in/options');
    expect(await challenges()).toHaveLength(13);
    expect(JSON.stringify(await challenges())).not.toContain('203.0.113');
    t.clock.advance(2 * MINUTE);
    await from(t, '192.0.2.50').post('/api/admin/passkeys/sign-in/options');
    expect(await challenges()).toHaveLength(1);
  });
});
