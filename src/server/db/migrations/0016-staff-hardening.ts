import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';

/**
 * Staff sign-in hardened (issue 34).
 *
 * - webauthn_challenges.network: the keyed hash of the network that asked for a sign-in
 *   challenge, so each network keeps only its newest few (admin/passkeys.service.ts); with
 *   expires_at indexed, expired ones are deleted as new ones are made.
 * - The outbox tells a member of staff when their account is under attack ('staff-alert', to
 *   `staff_id`). PostgreSQL swaps the kind check; SQLite cannot alter one, so the table is
 *   rebuilt with the same columns, as 0004 and 0014 did.
 * - Invite and sign-in links travelled in query strings until now, where proxies and servers
 *   log them: every link not yet used ends here, and the owner sends new ones (with the token in
 *   the address's fragment, which no server sees).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await harden(db);
  else await db.transaction().execute(harden);
}

const KINDS = ['welcome', 'daily', 'confirm', 'staff-invite', 'staff-alert'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function harden(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webauthn_challenges').addColumn('network', 'text').execute();
  await db.schema.createIndex('webauthn_challenges_network').on('webauthn_challenges').column('network').execute();
  await db.schema.createIndex('webauthn_challenges_expiry').on('webauthn_challenges').column('expires_at').execute();

  await allowOutboxKinds(db, KINDS);
  await db.schema
    .alterTable('email_outbox')
    .addColumn('staff_id', 'integer', (c) => c.references('staff.id').onDelete('cascade'))
    .execute();

  await sql`update staff_links set expires_at = ${'2000-01-01T00:00:00.000Z'} where used_at is null`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function allowOutboxKinds(db: Kysely<any>, kinds: string[]): Promise<void> {
  const allowed = sql.join(kinds.map((kind) => sql.lit(kind)));
  if (isPostgres(db)) {
    await sql`alter table email_outbox drop constraint email_outbox_kind_check`.execute(db);
    await sql`alter table email_outbox add constraint email_outbox_kind_check check (kind in (${allowed}))`.execute(db);
    return;
  }
  const { rows } = await sql<{
    sql: string;
  }>`select sql from sqlite_master where type = 'table' and name = 'email_outbox'`.execute(db);
  const create = rows[0]?.sql;
  const widened = create?.replace(
    /"email_outbox_kind_check" check \(kind in \([^)]*\)\)/,
    `"email_outbox_kind_check" check (kind in (${kinds.map((k) => `'${k}'`).join(', ')}))`,
  );
  if (!create || !widened || widened === create)
    throw new Error('email_outbox has an unexpected shape; cannot widen its kind check');
  await sql.raw(widened.replace(/^create table "email_outbox"/i, 'create table "email_outbox_new"')).execute(db);
  await sql`insert into email_outbox_new select * from email_outbox`.execute(db);
  await sql`drop table email_outbox`.execute(db);
  await sql`alter table email_outbox_new rename to email_outbox`.execute(db);
  await db.schema.createIndex('email_outbox_due').on('email_outbox').columns(['status', 'next_attempt_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from email_outbox where kind = 'staff-alert'`.execute(db);
  // SQLite cannot drop a column that references another table: there the outbox keeps it, empty.
  if (isPostgres(db)) await db.schema.alterTable('email_outbox').dropColumn('staff_id').execute();
  await allowOutboxKinds(db, KINDS.slice(0, -1));
  await db.schema.dropIndex('webauthn_challenges_expiry').execute();
  await db.schema.dropIndex('webauthn_challenges_network').execute();
  await db.schema.alterTable('webauthn_challenges').dropColumn('network').execute();
}
