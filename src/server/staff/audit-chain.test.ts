/**
 * Issue 34, item 10: the audit chain is keyed with AUDIT_CHAIN_KEY, its head is logged once a
 * day, and each attack on it is caught: an edit rehashed without the key, a cut tail, and an
 * older copy restored (the last two by the published head, or by the last check's row).
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditCheck } from '../../shared/api.js';
import { openDatabase, type Db } from '../db/connection.js';
import { toIsoString } from '../db/tables.js';
import { createTestApp, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { appendAuditAlone, holdsAuditHead, SYSTEM_ACTOR, useAuditChainKey, verifyAuditChain } from './audit.js';

const KEY = Buffer.alloc(32, 7).toString('base64');

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe.each(testDatabaseKinds())('the audit chain (%s)', (kind) => {
  const keyed = async () => (t = await createTestApp(kind, { env: { AUDIT_CHAIN_KEY: KEY } }));

  async function append(db: Db, count: number): Promise<void> {
    for (let i = 0; i < count; i += 1)
      await appendAuditAlone(db, new Date(), SYSTEM_ACTOR, { action: 'test.row', target: 'x', summary: `row ${i}` });
  }

  /** A connection of its own, as `npm run db:verify-audit` has: no earlier check to compare with. */
  async function fromTheCommandLine(work: (db: Db) => Promise<void>): Promise<void> {
    const cli = openDatabase(t?.config.database ?? { kind: 'sqlite', file: ':memory:' });
    try {
      await work(cli);
    } finally {
      await cli.destroy();
    }
  }

  /** What someone with the database's keys can do: turn the append-only triggers off a while. */
  async function behindItsBack(db: Db, work: () => Promise<unknown>): Promise<void> {
    const postgres = kind === 'postgres';
    if (postgres) await sql`alter table audit_log disable trigger audit_log_no_change`.execute(db);
    else {
      await sql`drop trigger audit_log_no_update`.execute(db);
      await sql`drop trigger audit_log_no_delete`.execute(db);
    }
    await work();
    if (postgres) await sql`alter table audit_log enable trigger audit_log_no_change`.execute(db);
    else {
      await sql`create trigger audit_log_no_update before update on audit_log
        begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
      await sql`create trigger audit_log_no_delete before delete on audit_log
        begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    }
  }

  /** The attacker's rewrite: every row from `fromId` on rehashed with plain SHA-256, as the chain was before the key. */
  async function rehashFrom(db: Db, fromId: number): Promise<void> {
    const rows = await db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    let prev = rows.find((row) => row.id === fromId - 1)?.hash ?? '0'.repeat(64);
    for (const row of rows.filter((r) => r.id >= fromId)) {
      const fields = [prev, row.id, toIsoString(row.at), row.actor_id, row.actor_name, row.actor_role];
      const text = JSON.stringify([...fields, row.action, row.target, row.summary]);
      const hash = createHash('sha256').update(text).digest('hex');
      await db.updateTable('audit_log').set({ prev_hash: prev, hash }).where('id', '=', row.id).execute();
      prev = hash;
    }
  }

  it('catches an edit rehashed without the key: by the next check, and by a full walk', async () => {
    const { db } = await keyed();
    await append(db, 4);
    const before = await verifyAuditChain(db);
    expect(before).toMatchObject({ ok: true, keyed: true, unkeyedRows: 0 });

    await behindItsBack(db, async () => {
      await db.updateTable('audit_log').set({ summary: 'nothing happened' }).where('id', '=', 2).execute();
      await rehashFrom(db, 2);
    });
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, brokenAt: before.head?.id });
    await fromTheCommandLine(async (cli) =>
      expect(await verifyAuditChain(cli, { full: true })).toMatchObject({
        ok: false,
        brokenAt: 2,
        problem: 'Row 2 was changed after it was written.',
      }),
    );
  });

  it('catches a cut tail: the chain still links, but the published head is gone from it', async () => {
    const { db } = await keyed();
    await append(db, 4);
    const published = await verifyAuditChain(db, { full: true });
    const head = published.head?.hash ?? '';
    expect(await holdsAuditHead(db, head)).toBe(true);

    await behindItsBack(db, () =>
      db
        .deleteFrom('audit_log')
        .where('id', '>=', (published.head?.id ?? 0) - 1)
        .execute(),
    );
    // The command line, a process of its own: the chain links, but the published head is gone.
    await fromTheCommandLine(async (cli) => {
      expect(await verifyAuditChain(cli, { full: true })).toMatchObject({ ok: true });
      expect(await holdsAuditHead(cli, head)).toBe(false);
    });
    // The site's own next check knows the row it last checked is gone.
    expect(await verifyAuditChain(db)).toMatchObject({
      ok: false,
      problem: expect.stringContaining('gone or changed'),
    });
  });

  it('catches an older copy restored: the head published since is not in it', async () => {
    const { db } = await keyed();
    await append(db, 2);
    const copy = await db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    await append(db, 3);
    const published = await verifyAuditChain(db);
    const head = published.head?.hash ?? '';

    await behindItsBack(db, async () => {
      await db.deleteFrom('audit_log').execute();
      await db
        .insertInto('audit_log')
        .values(copy.map((row) => ({ ...row, at: toIsoString(row.at) })))
        .execute();
    });
    await fromTheCommandLine(async (cli) => {
      expect(await verifyAuditChain(cli, { full: true })).toMatchObject({ ok: true, rows: copy.length });
      expect(await holdsAuditHead(cli, head)).toBe(false);
    });
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, problem: expect.stringContaining('older copy') });
  });

  it('accepts rows from before the key only at the start of the chain', async () => {
    t = await createTestApp(kind);
    const { db } = t;
    await append(db, 2);
    const unkeyed = await verifyAuditChain(db, { full: true });
    expect(unkeyed).toMatchObject({ ok: true, keyed: false });
    expect(unkeyed.unkeyedRows).toBe(unkeyed.rows);

    useAuditChainKey(KEY);
    await append(db, 2);
    expect(await verifyAuditChain(db, { full: true })).toMatchObject({
      ok: true,
      rows: unkeyed.rows + 2,
      unkeyedRows: unkeyed.rows,
    });
    // A row appended with the old plain hash after keyed ones: a forgery.
    useAuditChainKey(null);
    await append(db, 1);
    useAuditChainKey(KEY);
    expect(await verifyAuditChain(db, { full: true })).toMatchObject({ ok: false, brokenAt: unkeyed.rows + 3 });
  });

  it('checks incrementally, and the hourly full walk finds what the per-request checks do not read again', async () => {
    const { db } = await keyed();
    await append(db, 3);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
    // An edit of an early row without a rehash: a later per-request check reads only the rows
    // since the last one, so it does not see it ...
    await behindItsBack(db, () => db.updateTable('audit_log').set({ summary: 'edited' }).where('id', '=', 1).execute());
    await append(db, 1);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
    // ... the hourly housekeeping's full walk does, and every check reports it from then on.
    await t?.app.jobs.housekeeping();
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, brokenAt: 1 });
  });

  it('says at start-up and on the audit page when the chain is unkeyed, and logs the head once a day', async () => {
    const lines: string[] = [];
    t = await createTestApp(kind, { logStream: { write: (line) => void lines.push(line) } });
    expect(lines.some((line) => line.includes('AUDIT_CHAIN_KEY is not set'))).toBe(true);
    const owner = new Visitor(t.app, { origin: t.config.site.publicUrl });
    expect((await owner.post('/api/admin/login', TEST_SIGN_IN)).statusCode).toBe(200);
    expect((await owner.get('/api/admin/audit/verify')).json<AuditCheck>()).toMatchObject({ ok: true, keyed: false });

    const heads = () =>
      lines
        .filter((line) => line.includes('Audit log head'))
        .map((line) => JSON.parse(line) as { msg: string; auditHead: { id: number; hash: string } });
    await t.app.jobs.housekeeping();
    await t.app.jobs.housekeeping();
    expect(heads()).toHaveLength(1);
    const first = heads()[0] ?? { msg: '', auditHead: { id: 0, hash: 'none' } };
    expect(first.auditHead).toEqual((await verifyAuditChain(t.db)).head);
    expect(first.msg).toContain(`npm run db:verify-audit -- --head ${first.auditHead.hash}`);
    t.clock.advance(24 * 3_600_000);
    await t.app.jobs.housekeeping();
    expect(heads()).toHaveLength(2);
    await t.close();

    lines.length = 0;
    t = await createTestApp(kind, {
      env: { AUDIT_CHAIN_KEY: KEY },
      logStream: { write: (line) => void lines.push(line) },
    });
    expect(lines.some((line) => line.includes('AUDIT_CHAIN_KEY'))).toBe(false);
    const keyedOwner = new Visitor(t.app, { origin: t.config.site.publicUrl });
    expect((await keyedOwner.post('/api/admin/login', TEST_SIGN_IN)).statusCode).toBe(200);
    expect((await keyedOwner.get('/api/admin/audit/verify')).json<AuditCheck>()).toMatchObject({
      ok: true,
      keyed: true,
    });
  });
});
