import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditCheck, AuditPage, StaffInvite, StaffMember, StaffSession } from '../../shared/api.js';
import { openDatabase, type Db } from '../db/connection.js';
import { migrations } from '../db/migrations/index.js';
import { insertVoteRow, seedPoll, seedPollBefore0010 } from '../testing/fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { SoftwareAuthenticator } from '../testing/software-authenticator.js';
import { signedInStaff } from '../testing/staff.js';
import {
  createTestApp,
  createTestAppOn,
  createTestAppWithMail,
  TEST_SIGN_IN,
  type TestApp,
} from '../testing/test-app.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { verifyAuditChain } from './audit.js';
import { hashPassword } from './password.js';
import { readStaffLink } from '../../shared/staff-links.js';

const MINUTE = 60_000;
const NEW_PASSWORD = 'a long enough new password';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function ownerOf(app: TestApp) {
  const owner = new Visitor(app.app, { origin: app.config.site.publicUrl });
  expect((await owner.post('/api/admin/login', TEST_SIGN_IN)).statusCode).toBe(200);
  return owner;
}

const auditRows = (db: Db) => db.selectFrom('audit_log').selectAll().orderBy('id').execute();

async function invite(owner: Visitor, email: string, role = 'editor') {
  const response = await owner.post('/api/admin/invites', { email, role });
  expect(response.statusCode).toBe(201);
  const { link, id } = response.json<StaffInvite & { link: string }>();
  const url = new URL(link);
  // The token travels in the fragment, which no browser sends to a server.
  expect(url.search).toBe('');
  return { id, token: readStaffLink(url.hash)?.token ?? '' };
}

async function currentSchemaOf(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}

describe.each(testDatabaseKinds())('staff accounts (%s)', (kind) => {
  it('writes one audit row per action, in its transaction: a refused action writes none', async () => {
    t = await createTestApp(kind);
    const owner = await ownerOf(t);
    const start = (await auditRows(t.db)).length; // the owner made at start, and their sign-in
    expect(start).toBe(2);

    const created = await owner.post('/api/admin/polls', {
      question: 'Homework in primary school?',
      options: ['Yes', 'No'],
      liveDate: '2026-11-25',
    });
    expect(created.statusCode).toBe(201);
    const pollId = created.json<{ poll: { id: number } }>().poll.id;
    // Refused (the day is taken): nothing, not even an audit row.
    const clash = await owner.post('/api/admin/polls', {
      question: 'Clash?',
      options: ['A', 'B'],
      liveDate: '2026-11-25',
    });
    expect(clash.statusCode).toBe(409);
    expect((await owner.request({ method: 'DELETE', url: '/api/admin/polls/9999' })).statusCode).toBe(404);

    const rows = await auditRows(t.db);
    expect(rows.slice(start)).toMatchObject([
      { action: 'poll.create', target: `poll ${pollId}`, actor_name: 'owner', actor_role: 'owner' },
    ]);
    expect(rows.slice(start)[0]?.summary).toContain('Homework in primary school?');

    // Failed sign-ins are counted (sign-in-guard.test.ts), never written to the permanent log.
    const logged = (await auditRows(t.db)).length;
    await new Visitor(t.app).post('/api/admin/login', { email: 'owner@school.example', password: 'guess number one!' });
    expect(await auditRows(t.db)).toHaveLength(logged);
    expect(JSON.stringify(await auditRows(t.db))).not.toMatch(/guess number one|127\.0\.0\.1|correct horse/);

    const page = (await owner.get('/api/admin/audit?action=poll.create')).json<AuditPage>();
    expect(page.entries).toHaveLength(1);
    expect((await owner.get('/api/admin/audit/verify')).json<AuditCheck>()).toMatchObject({ ok: true });
    const csv = await owner.get('/api/admin/audit.csv');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('poll.create');
    expect((await auditRows(t.db)).at(-1)).toMatchObject({ action: 'export.audit' });
  });

  it('refuses UPDATE and DELETE on the audit log; an edit behind its back is found by the check', async () => {
    t = await createTestApp(kind);
    await ownerOf(t);
    const db = t.db;
    await expect(sql`update audit_log set summary = 'nothing happened'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 2 });

    // Someone with the database's keys drops the triggers, edits a row, and puts them back.
    const postgres = kind === 'postgres';
    if (postgres) await sql`alter table audit_log disable trigger audit_log_no_change`.execute(db);
    else await sql`drop trigger audit_log_no_update`.execute(db);
    await sql`update audit_log set summary = 'Signed in from somewhere else' where id = 2`.execute(db);
    if (postgres) await sql`alter table audit_log enable trigger audit_log_no_change`.execute(db);
    else
      await sql`create trigger audit_log_no_update before update on audit_log
        begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    expect(await verifyAuditChain(db, { full: true })).toMatchObject({ ok: false, brokenAt: 2, rows: 1 });
  });

  it('keeps the last owner, and disabling a person ends every one of their sessions at once', async () => {
    t = await createTestApp(kind);
    const owner = await ownerOf(t);
    const me = (await owner.get('/api/admin/session')).json<{ staff: StaffMember }>().staff;
    const demote = await owner.request({
      method: 'PUT',
      url: `/api/admin/staff/${me.id}`,
      payload: { role: 'editor' },
    });
    expect(demote.statusCode).toBe(409);
    const disable = await owner.request({
      method: 'PUT',
      url: `/api/admin/staff/${me.id}`,
      payload: { disabled: true },
    });
    expect(disable.statusCode).toBe(409);

    const editor = await signedInStaff(t, 'editor');
    const laptop = new Visitor(t.app, { origin: t.config.site.publicUrl });
    await laptop.post('/api/admin/login', { email: editor.email, password: 'a long staff test passphrase' });
    expect((await editor.visitor.get('/api/admin/polls')).statusCode).toBe(200);
    const ended = await owner.request({
      method: 'PUT',
      url: `/api/admin/staff/${editor.id}`,
      payload: { disabled: true },
    });
    expect(ended.statusCode).toBe(200);
    expect((await editor.visitor.get('/api/admin/polls')).statusCode).toBe(401);
    expect((await laptop.get('/api/admin/polls')).statusCode).toBe(401);
    const again = await new Visitor(t.app).post('/api/admin/login', {
      email: editor.email,
      password: 'a long staff test passphrase',
    });
    expect(again.statusCode).toBe(401);
    expect((await auditRows(t.db)).map((row) => [row.action, row.target]).at(-1)).toEqual([
      'staff.disable',
      `staff ${editor.id}`,
    ]);
  });

  it('lists a person their own sessions, which they can end; the owner sees and ends anyone’s', async () => {
    t = await createTestApp(kind);
    const owner = await ownerOf(t);
    const moderator = await signedInStaff(t, 'moderator');
    const own = (await moderator.visitor.get('/api/admin/sessions?all=true')).json<StaffSession[]>();
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ current: true, staffId: moderator.id });
    const everyone = (await owner.get('/api/admin/sessions?all=true')).json<StaffSession[]>();
    expect(everyone).toHaveLength(2);
    const ownerSession = everyone.find((s) => s.staffId !== moderator.id);
    const notTheirs = await moderator.visitor.request({
      method: 'DELETE',
      url: `/api/admin/sessions/${ownerSession?.id}`,
    });
    expect(notTheirs.statusCode).toBe(404);
    const theirs = everyone.find((s) => s.staffId === moderator.id);
    expect((await owner.request({ method: 'DELETE', url: `/api/admin/sessions/${theirs?.id}` })).statusCode).toBe(200);
    expect((await moderator.visitor.get('/api/poll-suggestions')).statusCode).toBe(401);
  });

  it('shows voter e-mails to the owner only, within 10 minutes of signing in; then asks to sign in again', async () => {
    t = await createTestApp(kind);
    const owner = await ownerOf(t);
    const poll = await seedPoll(t.db);
    await insertVoteRow(t.db, { pollId: poll.id, optionIndex: 0, voterEmail: 'teacher@example.org' });
    const editor = await signedInStaff(t, 'editor');
    const url = `/api/admin/polls/${poll.id}/votes?withEmail=true&limit=10`;
    expect((await editor.visitor.get(url)).statusCode).toBe(403);
    expect((await editor.visitor.get(`/api/admin/polls/${poll.id}/votes.csv?withEmail=true`)).statusCode).toBe(403);
    expect((await editor.visitor.get(`/api/admin/polls/${poll.id}/votes.csv`)).statusCode).toBe(200);

    expect((await owner.get(url)).json<{ voterEmail: string }[]>()[0]?.voterEmail).toBe('teacher@example.org');
    expect((await auditRows(t.db)).at(-1)).toMatchObject({ action: 'votes.emails', target: `poll ${poll.id}` });
    t.clock.advance(11 * MINUTE);
    const stale = await owner.get(url);
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ code: 'sign-in-again' });
    expect((await owner.post('/api/admin/login', TEST_SIGN_IN)).statusCode).toBe(200);
    expect((await owner.get(url)).statusCode).toBe(200);
    const csv = await owner.get(`/api/admin/polls/${poll.id}/votes.csv?withEmail=true`);
    expect(csv.body).toContain('teacher@example.org');
    // The log says e-mails were seen and exported, never which.
    expect(JSON.stringify(await auditRows(t.db))).not.toContain('teacher@example.org');
  });

  it('invites by e-mail: good once, for 48 hours; a short or common password is refused', async () => {
    t = await createTestApp(kind);
    const owner = await ownerOf(t);
    const { token } = await invite(owner, 'new.editor@school.example');
    const stored = JSON.stringify(await snapshotDatabase(t.db));
    expect(stored).not.toContain(token);

    const guest = new Visitor(t.app, { origin: t.config.site.publicUrl });
    expect((await guest.post('/api/admin/invites/lookup', { token })).json()).toEqual({
      email: 'new.editor@school.example',
      role: 'editor',
    });
    // The token is never asked for in a URL: the old lookup by query string is gone.
    expect((await guest.get(`/api/admin/invites/lookup?token=${token}`)).statusCode).toBe(404);
    const short = await guest.post('/api/admin/invites/accept', { token, displayName: 'Sam', password: 'short one' });
    expect(short.statusCode).toBe(400);
    const common = await guest.post('/api/admin/invites/accept', {
      token,
      displayName: 'Sam',
      password: 'passwordpassword',
    });
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toMatch(/common or breached/);
    const accepted = await guest.post('/api/admin/invites/accept', {
      token,
      displayName: 'Sam',
      password: NEW_PASSWORD,
    });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json()).toMatchObject({ staff: { role: 'editor', displayName: 'Sam' } });
    expect((await guest.get('/api/admin/polls')).statusCode).toBe(200);

    const reused = await new Visitor(t.app).post('/api/admin/invites/accept', {
      token,
      displayName: 'Eve',
      password: NEW_PASSWORD,
    });
    expect(reused.statusCode).toBe(404);

    const late = await invite(owner, 'late@school.example');
    t.clock.advance(48 * 60 * MINUTE + 1000);
    const expired = await new Visitor(t.app).post('/api/admin/invites/accept', {
      token: late.token,
      displayName: 'Late',
      password: NEW_PASSWORD,
    });
    expect(expired.statusCode).toBe(404);
    expect(expired.json().message).toMatch(/expired or was already used/);
  });

  it('sends the invite by e-mail through the outbox, with a link of its own; a withdrawn one is not sent', async () => {
    const mailed = await createTestAppWithMail(kind);
    t = mailed;
    const owner = await ownerOf(mailed);
    await invite(owner, 'mailed@school.example', 'moderator');
    const withdrawn = await invite(owner, 'never@school.example');
    expect((await owner.request({ method: 'DELETE', url: `/api/admin/invites/${withdrawn.id}` })).statusCode).toBe(200);
    expect(await mailed.app.jobs.sendMail()).toMatchObject({ sent: 1 });
    expect(mailed.smtp.to('never@school.example')).toEqual([]);
    const [mail] = mailed.smtp.to('mailed@school.example');
    expect(mail?.parsed.subject).toBe('You are invited to help run Teacher Hot Take');
    expect(mail?.parsed.text).toContain('owner invited you as moderator');
    const token = /\/admin#invite=([\w-]+)/.exec(mail?.parsed.text ?? '')?.[1] ?? '';
    expect(mail?.parsed.html).toContain(`/admin#invite=${token}`);
    expect(`${mail?.parsed.text}${mail?.parsed.html}`).not.toMatch(/[?&](invite|sign-in)=/);
    expect(JSON.stringify(await snapshotDatabase(mailed.db))).not.toContain(token);
    const joined = await new Visitor(mailed.app).post('/api/admin/invites/accept', {
      token,
      displayName: 'Mo',
      password: NEW_PASSWORD,
    });
    expect(joined.statusCode).toBe(201);
    expect(joined.json()).toMatchObject({ staff: { role: 'moderator', email: 'mailed@school.example' } });
  });

  it('makes one account when two people accept one invite at once', async () => {
    t = await createTestApp(kind);
    const owner = await ownerOf(t);
    const { token } = await invite(owner, 'twice@school.example');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        new Visitor(t!.app).post('/api/admin/invites/accept', {
          token,
          displayName: `Person ${i}`,
          password: NEW_PASSWORD,
        }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    const accounts = await t.db
      .selectFrom('staff')
      .select('email')
      .where('email', '=', 'twice@school.example')
      .execute();
    expect(accounts).toHaveLength(1);
  });

  it('signs the owner in with a one-time link, once', async () => {
    t = await createTestApp(kind);
    const link = await t.app.inject({ method: 'GET', url: '/healthz' }); // the app is up
    expect(link.statusCode).toBe(200);
    const { createAdminAuth } = await import('./admin-auth.service.js');
    const auth = createAdminAuth({
      db: t.db,
      clock: t.clock,
      config: t.config,
      legacyPasswordHash: null,
      keyedHash: (v) => Promise.resolve(v),
      secureCookies: false,
    });
    const made = await auth.signInLink();
    const token = made?.token ?? '';
    const browser = new Visitor(t.app, { origin: t.config.site.publicUrl });
    expect((await browser.post('/api/admin/sign-in-link', { token })).statusCode).toBe(200);
    expect((await browser.get('/api/admin/staff')).statusCode).toBe(200);
    expect((await new Visitor(t.app).post('/api/admin/sign-in-link', { token })).statusCode).toBe(404);
  });

  it('registers passkeys, signs in with them, refuses one without user verification, and forgets a removed one', async () => {
    t = await createTestApp(kind);
    const owner = await ownerOf(t);
    const { origin, hostname } = new URL(t.config.site.publicUrl);
    const authenticator = new SoftwareAuthenticator(origin, hostname);
    const options = (await owner.post('/api/admin/passkeys/register/options')).json<{
      challenge: string;
      user: { id: string };
    }>();
    const added = await owner.post('/api/admin/passkeys', {
      name: 'Laptop',
      response: authenticator.register(options),
    });
    expect(added.statusCode).toBe(201);
    const second = (await owner.post('/api/admin/passkeys/register/options')).json<{
      challenge: string;
      user: { id: string };
    }>();
    expect(
      (await owner.post('/api/admin/passkeys', { name: 'Phone', response: authenticator.register(second) })).statusCode,
    ).toBe(201);
    const passkeys = (await owner.get('/api/admin/passkeys')).json<{ id: string; name: string }[]>();
    expect(passkeys.map((p) => p.name)).toEqual(['Laptop', 'Phone']);
    // The signed-in person's own record counts them, as the staff list does.
    const me = (await owner.get('/api/admin/session')).json<{ staff: StaffMember }>().staff;
    expect(me).toEqual((await owner.get('/api/admin/staff')).json<StaffMember[]>().find((p) => p.id === me.id));
    expect(me).toMatchObject({ passkeys: 2, createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    expect(JSON.stringify(await auditRows(t.db))).not.toContain(passkeys[0]?.id ?? '-');

    const signInWith = async (id: string, with_ = authenticator) => {
      const browser = new Visitor(t!.app, { origin });
      const challenge = (await browser.post('/api/admin/passkeys/sign-in/options')).json<{ challenge: string }>();
      return browser.post('/api/admin/passkeys/sign-in', { response: with_.authenticate(challenge, id) });
    };
    for (const passkey of passkeys) expect((await signInWith(passkey.id)).statusCode).toBe(200);

    // An authenticator that does not verify its user is refused, at registration and at sign-in.
    const careless = new SoftwareAuthenticator(origin, hostname, false);
    const third = (await owner.post('/api/admin/passkeys/register/options')).json<{
      challenge: string;
      user: { id: string };
    }>();
    expect(
      (await owner.post('/api/admin/passkeys', { name: 'Careless', response: careless.register(third) })).statusCode,
    ).toBe(400);

    const removed = passkeys[0]?.id ?? '';
    expect((await owner.request({ method: 'DELETE', url: `/api/admin/passkeys/${removed}` })).statusCode).toBe(200);
    expect((await signInWith(removed)).statusCode).toBe(401);
    expect((await signInWith(passkeys[1]?.id ?? '')).statusCode).toBe(200);
  });
});

describe.each(testDatabaseKinds())('upgrading a site from before staff accounts (%s)', (kind) => {
  it('leaves polls, votes and suggestions as they were; the old password makes the owner once, then signs nobody in', async () => {
    const database = await createTestDatabase(kind);
    const db = openDatabase(database.target);
    const oldPassword = 'the old shared staff password';
    let before: Record<string, unknown[]>;
    try {
      const migrator = new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
        ...(kind === 'postgres' ? { migrationTableSchema: await currentSchemaOf(db) } : {}),
      });
      expect((await migrator.migrateTo('0012-proof-of-work')).error).toBeUndefined();
      const poll = await seedPollBefore0010(db, { votes: [] });
      await insertVoteRow(db, { pollId: poll.id, optionIndex: 1, voterEmail: 'v@example.org' });
      const at = '2026-11-20T12:00:00.000Z';
      await sql`insert into poll_suggestions (question, options, suggested_by, email, created_at)
        values ('Longer lunch?', '["Yes","No"]', 'Ms. R', 'r@example.org', ${at})`.execute(db);
      await sql`insert into settings (name, value) values ('admin_password_hash', ${await hashPassword(oldPassword)})`.execute(
        db,
      );
      await sql`insert into admin_sessions (token_hash, created_at, last_seen_at, expires_at)
        values ('an-old-session', ${at}, ${at}, '2099-01-01T00:00:00.000Z')`.execute(db);
      const snapshot = async () => ({
        polls: await db.selectFrom('polls').selectAll().orderBy('id').execute(),
        votes: await db.selectFrom('votes').selectAll().orderBy('id').execute(),
        poll_suggestions: await db.selectFrom('poll_suggestions').selectAll().orderBy('id').execute(),
      });
      before = await snapshot();
    } finally {
      await db.destroy();
    }

    const logged: string[] = [];
    const env = { ADMIN_EMAIL: '', ADMIN_PASSWORD: '' };
    const first = await createTestAppOn(database, { keepDatabase: true, env });
    try {
      // Every value held before is still there; later migrations of the same release may add columns.
      for (const table of ['polls', 'votes', 'poll_suggestions'] as const) {
        expect(await first.db.selectFrom(table).selectAll().orderBy('id').execute(), table).toMatchObject(
          before[table] ?? [],
        );
      }
      expect(await first.db.selectFrom('admin_sessions').selectAll().execute()).toEqual([]);
      const visitor = new Visitor(first.app, { origin: first.config.site.publicUrl });
      expect((await visitor.get('/api/admin/session')).json()).toEqual({ authenticated: false, needsOwner: true });
      const owner = { email: 'head@school.example', displayName: 'Head', password: NEW_PASSWORD };
      expect((await visitor.post('/api/admin/setup', { ...owner, adminPassword: oldPassword })).statusCode).toBe(200);
      expect((await visitor.get('/api/admin/polls')).statusCode).toBe(200);
    } finally {
      await first.close();
    }

    // Restarted with the old password still set: it signs nobody in, and the log says so.
    const second = await createTestAppOn(database, {
      env: { ADMIN_EMAIL: '', ADMIN_PASSWORD: oldPassword, LOG_LEVEL: 'info' },
      logStream: { write: (line: string) => void logged.push(line) },
    });
    try {
      const visitor = new Visitor(second.app, { origin: second.config.site.publicUrl });
      const again = await visitor.post('/api/admin/setup', {
        email: 'x@school.example',
        displayName: 'X',
        password: NEW_PASSWORD,
        adminPassword: oldPassword,
      });
      expect(again.statusCode).toBe(409);
      for (const email of ['head@school.example', 'x@school.example'])
        expect((await visitor.post('/api/admin/login', { email, password: oldPassword })).statusCode).toBe(401);
      expect(logged.join('\n')).toContain('ADMIN_PASSWORD no longer signs anyone in');
      expect(await second.db.selectFrom('staff').select('email').execute()).toEqual([{ email: 'head@school.example' }]);
    } finally {
      await second.close();
    }
  });
});

// Two instances on one PostgreSQL database (two SQLite connections in one process cannot stand in for two servers).
if (testDatabaseKinds().includes('postgres')) {
  describe('two instances on PostgreSQL', () => {
    it('finishes on one a passkey ceremony begun on the other; disabling a person on one ends their session on both', async () => {
      const database = await createTestDatabase('postgres');
      const a = await createTestAppOn(database, { keepDatabase: true });
      const b = await createTestAppOn(database);
      try {
        const { origin, hostname } = new URL(a.config.site.publicUrl);
        const ownerOnA = await ownerOf(a);
        const authenticator = new SoftwareAuthenticator(origin, hostname);
        const options = (await ownerOnA.post('/api/admin/passkeys/register/options')).json<{
          challenge: string;
          user: { id: string };
        }>();
        const ownerOnB = new Visitor(b.app, { origin });
        ownerOnB.cookies.set('admin_session', ownerOnA.cookies.get('admin_session') ?? '');
        expect(
          (await ownerOnB.post('/api/admin/passkeys', { name: 'Laptop', response: authenticator.register(options) }))
            .statusCode,
        ).toBe(201);

        const browser = new Visitor(a.app, { origin });
        const challenge = (await browser.post('/api/admin/passkeys/sign-in/options')).json<{ challenge: string }>();
        const onB = new Visitor(b.app, { origin });
        expect(
          (await onB.post('/api/admin/passkeys/sign-in', { response: authenticator.authenticate(challenge) }))
            .statusCode,
        ).toBe(200);

        const editor = await signedInStaff(a, 'editor');
        const editorOnB = new Visitor(b.app, { origin });
        editorOnB.cookies.set('admin_session', editor.visitor.cookies.get('admin_session') ?? '');
        expect((await editorOnB.get('/api/admin/polls')).statusCode).toBe(200);
        const disable = await ownerOnB.request({
          method: 'PUT',
          url: `/api/admin/staff/${editor.id}`,
          payload: { disabled: true },
        });
        expect(disable.statusCode).toBe(200);
        expect((await editor.visitor.get('/api/admin/polls')).statusCode).toBe(401);
        expect((await editorOnB.get('/api/admin/polls')).statusCode).toBe(401);
        expect(await verifyAuditChain(a.db)).toMatchObject({ ok: true });
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
}
