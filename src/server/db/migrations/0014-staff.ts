import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection.js';
import { columnTypes } from './column-types.js';

/**
 * Staff as people (issue 27): accounts with a role, their passkeys, invites and one-time
 * sign-in links (stored by the hash of their token, like email_links), WebAuthn challenges kept
 * in the database so any instance can finish a ceremony another began, and the audit log.
 *
 * Sessions from before belonged to the shared password: they end here. admin_sessions is made
 * again, each session now belonging to a person.
 *
 * The audit log is append-only: triggers refuse UPDATE and DELETE on both databases, and each
 * row holds the hash of the row before it (admin/audit.ts), so an edit made behind the
 * database's back, with the triggers dropped, still shows.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await createStaff(db);
  else await db.transaction().execute(createStaff);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createStaff(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('staff')
    .addColumn('id', t.id, t.idConstraints)
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('disabled_at', t.timestamp)
    .addCheckConstraint('staff_role_check', sql`role in ('owner', 'editor', 'moderator')`)
    .execute();

  await db.schema
    .createTable('staff_passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp)
    .execute();
  await db.schema.createIndex('staff_passkeys_staff').on('staff_passkeys').column('staff_id').execute();

  // Invites (email + role) and one-time sign-in links (staff_id). used_at is set once, by an
  // update that only succeeds while it is null: two people accepting one invite, one wins.
  await db.schema
    .createTable('staff_links')
    .addColumn('id', t.id, t.idConstraints)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // The e-mailed invite's own token (made when the outbox sends it, as email_links are).
    .addColumn('mail_token_hash', 'text', (c) => c.unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('role', 'text')
    .addColumn('staff_id', 'integer', (c) => c.references('staff.id').onDelete('cascade'))
    .addColumn('created_by', 'integer')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .addColumn('accepted_staff_id', 'integer', (c) => c.unique())
    .addCheckConstraint('staff_links_kind_check', sql`kind in ('invite', 'sign-in')`)
    .execute();

  await outboxForStaff(db);

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('staff_id', 'integer')
    .addColumn('link_id', 'integer')
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema.dropTable('admin_sessions').execute();
  await db.schema
    .createTable('admin_sessions')
    .addColumn('id', t.id, t.idConstraints)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('browser', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('signed_in_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_sessions_staff').on('admin_sessions').column('staff_id').execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', t.id, t.idConstraints)
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('actor_role', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .execute();
  await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_id', 'id']).execute();
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'id']).execute();

  if (isPostgres(db)) {
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only'; end $$`.execute(db);
    await sql`create trigger audit_log_no_change before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
    await sql`create trigger audit_log_no_truncate before truncate on audit_log
      for each statement execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    await sql`create trigger audit_log_no_delete before delete on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  }
}

/**
 * The outbox also sends staff invites: a row names a staff link instead of a subscriber, of
 * kind 'staff-invite'. PostgreSQL alters the table; SQLite cannot drop a NOT NULL or alter a
 * check, so the table is rebuilt with the same columns (nothing references it), as 0004 did.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function outboxForStaff(db: Kysely<any>): Promise<void> {
  const kinds = sql`kind in ('welcome', 'daily', 'confirm', 'staff-invite')`;
  if (isPostgres(db)) {
    await sql`alter table email_outbox alter column subscriber_id drop not null`.execute(db);
    await sql`alter table email_outbox drop constraint email_outbox_kind_check`.execute(db);
    await sql`alter table email_outbox add constraint email_outbox_kind_check check (${kinds})`.execute(db);
  } else {
    const { rows } = await sql<{
      sql: string;
    }>`select sql from sqlite_master where type = 'table' and name = 'email_outbox'`.execute(db);
    const create = rows[0]?.sql ?? '';
    const changed = create
      .replace('"subscriber_id" integer not null references', '"subscriber_id" integer references')
      .replace(
        /"email_outbox_kind_check" check \(kind in \([^)]*\)\)/,
        `"email_outbox_kind_check" check (kind in ('welcome', 'daily', 'confirm', 'staff-invite'))`,
      );
    if (!changed.includes("'staff-invite'") || changed.includes('"subscriber_id" integer not null'))
      throw new Error('email_outbox has an unexpected shape; cannot let it send staff invites');
    await sql.raw(changed.replace(/^create table "email_outbox"/i, 'create table "email_outbox_new"')).execute(db);
    await sql`insert into email_outbox_new select * from email_outbox`.execute(db);
    await sql`drop table email_outbox`.execute(db);
    await sql`alter table email_outbox_new rename to email_outbox`.execute(db);
    await db.schema.createIndex('email_outbox_due').on('email_outbox').columns(['status', 'next_attempt_at']).execute();
  }
  await db.schema
    .alterTable('email_outbox')
    .addColumn('staff_link_id', 'integer', (c) => c.references('staff_links.id').onDelete('cascade'))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from email_outbox where kind = 'staff-invite'`.execute(db);
  // SQLite cannot drop a column that references another table: there the outbox keeps it, empty.
  if (isPostgres(db)) await db.schema.alterTable('email_outbox').dropColumn('staff_link_id').execute();
  await db.schema.dropTable('audit_log').execute();
  if (isPostgres(db)) await sql`drop function audit_log_append_only()`.execute(db);
  await db.schema.dropTable('admin_sessions').execute();
  const t = columnTypes(db);
  await db.schema
    .createTable('admin_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  for (const table of ['webauthn_challenges', 'staff_links', 'staff_passkeys', 'staff'])
    await db.schema.dropTable(table).execute();
}
