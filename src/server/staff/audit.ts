/**
 * The audit log (issue 27, section 3): who did what, appended in the same transaction as the
 * action, so a rolled-back action leaves no row and a committed one always has its row. The
 * database refuses UPDATE and DELETE on it (migration 0014); each row also holds the hash of
 * the row before, so an edit or a removed row, made with the triggers dropped, breaks the chain
 * and `verifyAuditChain` says where. Never passwords, tokens, passkey material or voter e-mails:
 * callers write a short summary in words, nothing else.
 *
 * Issue 34: the chain is keyed. With AUDIT_CHAIN_KEY set, each hash is an HMAC under a secret
 * the database never holds, so someone with only the database cannot rehash an edited chain.
 * A cut tail or a restored older copy still verifies as a chain: the head (the last row's id
 * and hash) is written to the log once a day and at start-up, and `npm run db:verify-audit --
 * --head HASH` fails when that hash is no longer in the chain. Rows written before the key was
 * set keep their plain SHA-256 hashes: they are accepted only before the first keyed row.
 */
import { createHash, createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
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

/**
 * The chain's key (AUDIT_CHAIN_KEY), the process's: set once at start-up (services.ts, the
 * command line), before anything is appended. Null: the chain is unkeyed.
 */
let chainKey: string | null = null;

export function useAuditChainKey(key: string | null): void {
  chainKey = key;
}

export const auditChainKeyed = (): boolean => chainKey !== null;

function rowHash(prevHash: string, row: HashedFields, key: string | null = chainKey): string {
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
  const text = JSON.stringify(fields);
  return (key === null ? createHash('sha256') : createHmac('sha256', key)).update(text).digest('hex');
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

/** How far the chain has been checked, and what was found up to there. */
interface Checkpoint {
  id: number;
  hash: string;
  rows: number;
  unkeyedRows: number;
}

/** Per database: where the last good check ended, so the next one reads only the rows since. */
const checkpoints = new WeakMap<Db, Checkpoint>();
/** Per database: a break found, which every later check reports until a full walk finds none. */
const breaks = new WeakMap<Db, AuditCheck>();

const GONE_OR_CHANGED = (id: number) =>
  `Row ${id}, the last one checked before, is gone or changed: the log was cut, rewritten or replaced by an older copy.`;

/**
 * Checks the chain. Every check first makes sure the last row an earlier check of this process
 * ended on still has the hash it had (a cut tail or an older copy fails here). The first check
 * walks every row; later ones (the audit page asks on each visit) only the rows since. `full`
 * walks everything again (the command line, the daily head line).
 */
export async function verifyAuditChain(db: Db, { full = false }: { full?: boolean } = {}): Promise<AuditCheck> {
  const found = breaks.get(db);
  if (found && !full) return found;
  const check = await walk(db, full);
  if (check.ok) breaks.delete(db);
  else breaks.set(db, check);
  return check;
}

async function walk(db: Db, full: boolean): Promise<AuditCheck> {
  const last = checkpoints.get(db);
  if (last) {
    const row = await db.selectFrom('audit_log').select('hash').where('id', '=', last.id).executeTakeFirst();
    if (row?.hash !== last.hash) return broken(last, last.id, GONE_OR_CHANGED(last.id));
  }
  const start = full ? undefined : last;
  let at: Checkpoint = start ?? { id: 0, hash: GENESIS, rows: 0, unkeyedRows: 0 };
  for (;;) {
    const page = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('id', '>', at.id)
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
      if (row.prev_hash !== at.hash)
        return broken(at, row.id, `Row ${row.id} does not follow the row before it: a row is missing or was changed.`);
      const keyedBefore = at.rows > at.unkeyedRows;
      let unkeyed = false;
      if (rowHash(at.hash, fields) !== row.hash) {
        // Written before the key was set: only a run of such rows at the start of the chain.
        unkeyed = chainKey !== null && !keyedBefore && rowHash(at.hash, fields, null) === row.hash;
        if (!unkeyed)
          return broken(
            at,
            row.id,
            chainKey === null
              ? `Row ${row.id} does not match its hash: it was changed, or written with a chain key this server does not have (AUDIT_CHAIN_KEY).`
              : `Row ${row.id} was changed after it was written.`,
          );
      }
      at = { id: row.id, hash: row.hash, rows: at.rows + 1, unkeyedRows: at.unkeyedRows + (unkeyed ? 1 : 0) };
    }
    if (page.length < 1000) break;
  }
  checkpoints.set(db, at);
  return {
    ok: true,
    rows: at.rows,
    brokenAt: null,
    problem: null,
    keyed: chainKey !== null,
    unkeyedRows: chainKey === null ? at.rows : at.unkeyedRows,
    head: at.id === 0 ? null : { id: at.id, hash: at.hash },
  };
}

function broken(at: Checkpoint, id: number, problem: string): AuditCheck {
  return {
    ok: false,
    rows: at.rows,
    brokenAt: id,
    problem,
    keyed: chainKey !== null,
    unkeyedRows: chainKey === null ? at.rows : at.unkeyedRows,
    head: null,
  };
}

/**
 * Whether a head published earlier (a hash from the daily log line) is still in the chain:
 * a cut tail, a rewrite from before it or an older copy restored no longer holds it.
 */
export async function holdsAuditHead(db: Db, hash: string): Promise<boolean> {
  const row = await db.selectFrom('audit_log').select('id').where('hash', '=', hash.toLowerCase()).executeTakeFirst();
  return row !== undefined;
}

/**
 * Hourly (housekeeping) and at start-up: a full walk, so an edit of a row checked before is
 * found within the hour (the audit page reports it from then on), and once per UTC day the head
 * line. Whoever keeps the logs away from the database holds what `--head` checks against.
 */
export function createAuditHeadLog(db: Db, log: FastifyBaseLogger) {
  let loggedOn: string | null = null;
  return async (now: Date): Promise<void> => {
    const check = await verifyAuditChain(db, { full: true });
    if (!check.ok) {
      log.error({ auditLog: { brokenAt: check.brokenAt } }, `The audit log is broken: ${check.problem}`);
      return;
    }
    const day = now.toISOString().slice(0, 10);
    if (day === loggedOn) return;
    loggedOn = day;
    const keyed = check.keyed ? 'keyed' : 'UNKEYED (set AUDIT_CHAIN_KEY)';
    log.info(
      { auditHead: check.head },
      check.head
        ? `Audit log head: row ${check.head.id}, hash ${check.head.hash}, ${check.rows} rows, chain ${keyed}. Keep this line; check later with npm run db:verify-audit -- --head ${check.head.hash}`
        : `Audit log head: no rows yet, chain ${keyed}.`,
    );
  };
}
