/**
 * What makes access permanent, or cannot be undone, needs a sign-in within 10 minutes (issue 34):
 * adding a passkey, a new password, an invite, deleting a poll with votes (the owner's alone). A
 * new password or a removed passkey ends the person's other sessions. Links carry their token in
 * the fragment, from the CLI too, and links made before travelled in query strings: they end.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { can } from '../../shared/staff-permissions.js';
import { readStaffLink } from '../../shared/staff-links.js';
import { hashSecretToken } from '../db/secret-tokens.js';
import { openDatabase } from '../db/connection.js';
import { migrations } from '../db/migrations/index.js';
import { migrateToLatest } from '../db/migrate.js';
import { seedPoll, insertVoteRow } from '../testing/fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { SoftwareAuthenticator } from '../testing/software-authenticator.js';
import { signedInStaff } from '../testing/staff.js';
import { createTestApp, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

const MINUTE = 60_000;
const NEW_PASSWORD = 'a long enough new password';
const signInAgain = (needs: string) => ({
  code: 'sign-in-again',
  message: `${needs} a sign-in within the last 10 minutes. Please confirm it is you, then try again.`,
});

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function ownerOf(app: TestApp, password = TEST_SIGN_IN.password) {
  const owner = new Visitor(app.app, { origin: app.config.site.publicUrl });
  expect((await owner.post('/api/admin/login', { ...TEST_SIGN_IN, password })).statusCode).toBe(200);
  return owner;
}

function authenticatorOf(app: TestApp) {
  const { origin, hostname } = new URL(app.config.site.publicUrl);
  return new SoftwareAuthenticator(origin, hostname);
}

async function addPasskey(visitor: Visitor, authenticator: SoftwareAuthenticator, name = 'Laptop') {
  const options = (await visitor.post('/api/admin/passkeys/register/options')).json<{
    challenge: string;
    user: { id: string };
  }>();
  return visitor.post('/api/admin/passkeys', { name, response: authenticator.register(options) });
}

describe.each(testDatabaseKinds())('a recent sign-in (%s)', (kind) => {
  it('is asked for before a passkey, a password or an invite is added, and they are made once it is given', async () => {
    t = await createTestApp(kind);
    const owner = await ownerOf(t);
    t.clock.advance(11 * MINUTE);
    expect((await owner.get('/api/admin/passkeys')).statusCode).toBe(200);
    const before = await snapshotDatabase(t.db);
    const refused = [
      [await owner.post('/api/admin/passkeys/register/options'), 'Adding a passkey needs'],
      [await owner.post('/api/admin/passkeys', { name: 'Laptop', response: {} }), 'Adding a passkey needs'],
      [await owner.put('/api/admin/password', { password: NEW_PASSWORD }), 'Changing your password needs'],
      [
        await owner.post('/api/admin/invites', { email: 'new@school.example', role: 'owner' }),
        'Inviting someone needs',
      ],
    ] as const;
    for (const [response, needs] of refused) {
      expect(response.statusCode, needs).toBe(403);
      expect(response.json(), needs).toEqual(signInAgain(needs));
    }
    expect(await snapshotDatabase(t.db)).toEqual(before);

    // Confirmed (signed in again from the same browser): each goes through.
    expect((await owner.post('/api/admin/login', TEST_SIGN_IN)).statusCode).toBe(200);
    expect((await addPasskey(owner, authenticatorOf(t))).statusCode).toBe(201);
    expect((await owner.post('/api/admin/invites', { email: 'new@school.example', role: 'owner' })).statusCode).toBe(
      201,
    );
    expect((await owner.put('/api/admin/password', { password: NEW_PASSWORD })).statusCode).toBe(200);

    // Every role, for its own password.
    const editor = await signedInStaff(t, 'editor');
    t.clock.advance(11 * MINUTE);
    expect((await editor.visitor.put('/api/admin/password', { password: NEW_PASSWORD })).json()).toEqual(
      signInAgain('Changing your password needs'),
    );
  });

  it('ends the person’s other sessions when they change their password or remove a passkey', async () => {
    t = await createTestApp(kind);
    const laptop = await ownerOf(t);
    const phone = await ownerOf(t);
    const editor = await signedInStaff(t, 'editor');
    const changed = await laptop.put('/api/admin/password', { password: NEW_PASSWORD });
    expect((await phone.get('/api/admin/polls')).statusCode).toBe(401);
    expect(changed.json()).toEqual({ message: 'Password saved. Your other sessions have ended.' });
    expect((await laptop.get('/api/admin/polls')).statusCode).toBe(200);
    expect((await editor.visitor.get('/api/admin/polls')).statusCode).toBe(200);

    expect((await addPasskey(laptop, authenticatorOf(t))).statusCode).toBe(201);
    const again = await ownerOf(t, NEW_PASSWORD);
    const [passkey] = (await laptop.get('/api/admin/passkeys')).json<{ id: string }[]>();
    expect((await laptop.delete(`/api/admin/passkeys/${passkey?.id}`)).statusCode).toBe(200);
    expect((await again.get('/api/admin/polls')).statusCode).toBe(401);
    expect((await laptop.get('/api/admin/polls')).statusCode).toBe(200);
    const audit = await t.db.selectFrom('audit_log').select(['action', 'summary']).orderBy('id').execute();
    expect(audit.filter((row) => ['password.change', 'passkey.remove'].includes(row.action))).toEqual([
      { action: 'password.change', summary: 'Changed their password; their other sessions ended' },
      { action: 'passkey.remove', summary: 'Removed a passkey; their other sessions ended' },
    ]);
  });
});

describe.each(testDatabaseKinds())('deleting a poll (%s)', (kind) => {
  it('is an editor’s only for a poll nobody has voted on; one with votes is the owner’s, after a re-confirm', async () => {
    expect(can('editor', 'polls.delete-voted')).toBe(false);
    expect(can('owner', 'polls.delete-voted')).toBe(true);
    t = await createTestApp(kind);
    const owner = await ownerOf(t);
    const editor = await signedInStaff(t, 'editor');
    const unanswered = await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-30' });
    const answered = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20' });
    await insertVoteRow(t.db, { pollId: answered.id, voterEmail: 'teacher@example.org' });
    // A poll whose only vote is held (not in its totals) has votes too.
    const held = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-19' });
    await t.db
      .insertInto('votes')
      .values({
        poll_id: held.id,
        voter_id: 'held-voter',
        option_index: 0,
        voter_email: null,
        voted_on: '2026-11-19',
        created_at: '2026-11-19T15:00:00.000Z',
        status: 'held',
      })
      .execute();

    const before = await snapshotDatabase(t.db);
    for (const poll of [answered, held]) {
      const refused = await editor.visitor.delete(`/api/admin/polls/${poll.id}`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        message: 'This poll has votes, so only the site owner can delete it.',
        code: 'forbidden',
      });
    }
    expect(await snapshotDatabase(t.db)).toEqual(before);
    expect((await editor.visitor.delete(`/api/admin/polls/${unanswered.id}`)).json()).toEqual({
      message: 'Poll deleted successfully',
    });

    t.clock.advance(11 * MINUTE);
    const stale = await owner.delete(`/api/admin/polls/${answered.id}`);
    expect(stale.json()).toEqual(signInAgain('Deleting a poll with votes needs'));
    expect(await t.db.selectFrom('votes').select('id').where('poll_id', '=', answered.id).execute()).toHaveLength(1);
    expect((await owner.post('/api/admin/login', TEST_SIGN_IN)).statusCode).toBe(200);
    expect((await owner.delete(`/api/admin/polls/${answered.id}`)).statusCode).toBe(200);
    expect(await t.db.selectFrom('votes').select('id').where('poll_id', '=', answered.id).execute()).toEqual([]);
    const audit = await t.db.selectFrom('audit_log').select(['action', 'target', 'actor_role']).orderBy('id').execute();
    expect(audit.filter((row) => row.action === 'poll.delete')).toEqual([
      { action: 'poll.delete', target: `poll ${unanswered.id}`, actor_role: 'editor' },
      { action: 'poll.delete', target: `poll ${answered.id}`, actor_role: 'owner' },
    ]);
  });
});

describe('staff links', () => {
  it('are printed by `npm run staff -- sign-in-link` with the token in the fragment', async () => {
    t = await createTestApp('sqlite');
    const file = t.config.database.kind === 'sqlite' ? t.config.database.file : '';
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.resolve(import.meta.dirname, '../cli/staff.ts'), 'staff', 'sign-in-link'],
      {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: file, PUBLIC_URL: t.config.site.publicUrl },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
    const printed = /(http\S+)/.exec(output)?.[1] ?? '';
    const url = new URL(printed);
    expect(url.pathname).toBe('/admin');
    expect(url.search).toBe('');
    const token = readStaffLink(url.hash)?.token ?? '';
    expect(readStaffLink(url.hash)?.kind).toBe('sign-in');
    const link = await t.db
      .selectFrom('staff_links')
      .select('kind')
      .where('token_hash', '=', hashSecretToken(token))
      .executeTakeFirst();
    expect(link).toEqual({ kind: 'sign-in' });
  });

  it.each(testDatabaseKinds())(
    'made before tokens left query strings end with the upgrade (%s): they may be in a log',
    async (kind) => {
      const database = await createTestDatabase(kind);
      const db = openDatabase(database.target);
      try {
        const migrator = new Migrator({
          db,
          provider: { getMigrations: () => Promise.resolve(migrations) },
          ...(kind === 'postgres'
            ? { migrationTableSchema: (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s }
            : {}),
        });
        expect((await migrator.migrateTo('0015-push-reminders')).error).toBeUndefined();
        const at = '2026-11-21T12:00:00.000Z';
        await sql`insert into staff_links (token_hash, kind, email, role, created_at, expires_at)
          values ('old-invite', 'invite', 'new@school.example', 'editor', ${at}, '2099-01-01T00:00:00.000Z')`.execute(
          db,
        );
        await migrateToLatest(db);
        const link = await db.selectFrom('staff_links').select('expires_at').executeTakeFirstOrThrow();
        expect(new Date(link.expires_at).getTime()).toBeLessThan(Date.parse(at));
      } finally {
        await db.destroy();
        await database.drop();
      }
    },
  );
});
