/**
 * The audit log (issue 27, section 3): who did what, appended in the same transaction as the
 * action, so a rolled-back action leaves no row and a committed one always has its row. The
 * database refuses UPDATE and DELETE on it (migration 0014); each row also holds the hash of
 * the row before, so an edit or a removed row, made with the triggers dropped, breaks the chain
 * and `verifyAuditChain` says where. Never passwords, tokens, passkey material or voter e-mails:
 * callers write a short summary in words, nothing else.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { AuditEntry, AuditCheck } from '../../shared/api.js';
import type { StaffRole } from '../../shared/staff-permissions.js';
import { isPostgres, type Db } from '../db/connection.js';
import { toIsoString } from '../db/tables.js';

/** Whoever acts: a person, or the site itself (start-up, the command line). */
export interface Actor {
  id: number | null;
  name: string;
  role: StaffRole | 'system';
}

export const SYSTEM_ACTOR: Actor = { id: null, name: 'The site', role: 'system' };

export interface AuditRecord {
  action: string;
  target: string;
  summary: string;
}

/** An audit row to append inside the caller's transaction, once its target is known. */
export type AuditWrite = (trx: Db, target?: string) => Promise<void>;

const GENESIS = '0'.repeat(64);
/** Any number: only appending to the audit log takes this PostgreSQL advisory lock. */
const AUDIT_LOCK = 4_927_310_027;

interface HashedFields {
  id: number;
  at: string;
  actorId: number | null;
  actorName: string;
  actorRole: string;
  action: string;
  target: string;
  summary: string;
}

function rowHash(prevHash: string, row: HashedFields): string {
  const fields = [
    prevHash,
    row.id,
    row.at,
    row.actorId,
    row.actorName,
    row.actorRole,
    row.action,
    row.target,
    row.summary,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/**
 * Appends one row. Rows are chained one at a time: on PostgreSQL an advisory lock, held to the
 * end of the transaction, makes concurrent appends wait (SQLite's write lock does it there).
 * Call it last in a transaction, so nothing waits while holding it.
 */
export async function appendAudit(trx: Db, now: Date, actor: Actor, record: AuditRecord): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${AUDIT_LOCK})`.execute(trx);
  const last = await trx
    .selectFrom('audit_log')
    .select(['id', 'hash'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const row: HashedFields = {
    id: (last?.id ?? 0) + 1,
    at: now.toISOString(),
    actorId: actor.id,
    actorName: actor.name,
    actorRole: actor.role,
    action: record.action,
    target: record.target,
    summary: record.summary.slice(0, 500),
  };
  const prevHash = last?.hash ?? GENESIS;
  await trx
    .insertInto('audit_log')
    .values({
      id: row.id,
      at: row.at,
      actor_id: row.actorId,
      actor_name: row.actorName,
      actor_role: row.actorRole,
      action: row.action,
      target: row.target,
      summary: row.summary,
      prev_hash: prevHash,
      hash: rowHash(prevHash, row),
    })
    .execute();
}

/** Appends one row in a transaction of its own (sign-ins, which change nothing else). */
export function appendAuditAlone(db: Db, now: Date, actor: Actor, record: AuditRecord): Promise<void> {
  return db.transaction().execute((trx) => appendAudit(trx, now, actor, record));
}

export interface AuditFilter {
  actorId?: number | undefined;
  action?: string | undefined;
  /** Inclusive ISO instants. */
  from?: string | undefined;
  to?: string | undefined;
  /** Rows with an id below this (the next page). */
  before?: number | undefined;
  limit: number;
}

export async function listAudit(db: Db, filter: AuditFilter): Promise<AuditEntry[]> {
  let query = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(filter.limit);
  if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<=', filter.to);
  if (filter.before !== undefined) query = query.where('id', '<', filter.before);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    at: toIsoString(row.at),
    actor: { id: row.actor_id, name: row.actor_name, role: row.actor_role },
    action: row.action,
    target: row.target,
    summary: row.summary,
  }));
}

/** Walks the whole chain, a page at a time: every row's hash, and every link to the row before. */
export async function verifyAuditChain(db: Db): Promise<AuditCheck> {
  let prevHash = GENESIS;
  let afterId = 0;
  let rows = 0;
  for (;;) {
    const page = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(1000)
      .execute();
    for (const row of page) {
      const fields: HashedFields = {
        id: row.id,
        at: toIsoString(row.at),
        actorId: row.actor_id,
        actorName: row.actor_name,
        actorRole: row.actor_role,
        action: row.action,
        target: row.target,
        summary: row.summary,
      };
      if (row.prev_hash !== prevHash)
        return {
          ok: false,
          rows,
          brokenAt: row.id,
          problem: `Row ${row.id} does not follow the row before it: a row is missing or was changed.`,
        };
      if (rowHash(prevHash, fields) !== row.hash)
        return { ok: false, rows, brokenAt: row.id, problem: `Row ${row.id} was changed after it was written.` };
      prevHash = row.hash;
      rows += 1;
    }
    const last = page.at(-1);
    if (!last || page.length < 1000) return { ok: true, rows, brokenAt: null, problem: null };
    afterId = last.id;
  }
}
