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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
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
