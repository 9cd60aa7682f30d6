/**
 * The daily rhythm (DESIGN.md): on a new day, the poll scheduled for it goes live and the one
 * before becomes a past poll; with nothing scheduled, the current poll stays. Safe to run
 * any number of times, and from several instances at once: each change is conditional on the
 * state it expects, inside one transaction, so at most one instance's switch takes effect.
 *
 * Whenever a poll goes live, the day's e-mail to subscribers is queued in the same
 * transaction, so it exists exactly when the switch does (one per subscriber and day).
 */
import { localDateAt, type SiteClock } from '../../shared/time.js';
import type { Db } from '../db/connection.js';
import { enqueueDaily } from '../email/outbox.repository.js';
import { makeActive } from './polls.repository.js';

export interface Transition {
  /** The poll that went live, if one did. */
  activatedPollId: number | null;
}

class NothingToDo extends Error {}

const currentActiveId = async (db: Db) =>
  (await db.selectFrom('polls').select('id').where('status', '=', 'active').executeTakeFirst())?.id ?? null;

export async function runDailyTransition(db: Db, now: Date, site: SiteClock): Promise<Transition> {
  const today = localDateAt(now, site.timeZone);
  try {
    return await db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('polls')
        .select('id')
        .where('status', '=', 'scheduled')
        .where('live_date', '<=', today)
        .orderBy('live_date', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      if (!due) return { activatedPollId: null };
      const previousPollId = await currentActiveId(trx);
      await trx.updateTable('polls').set({ status: 'past', updated_at: now.toISOString() }).where('status', '=', 'active').execute();
      const activated = await trx
        .updateTable('polls')
        .set({ status: 'active', went_live_at: now.toISOString(), updated_at: now.toISOString() })
        .where('id', '=', due.id)
        .where('status', '=', 'scheduled') // another instance may have switched first
        .executeTakeFirst();
      if (activated.numUpdatedRows === 0n) throw new NothingToDo();
      await enqueueDaily(trx, { pollId: due.id, previousPollId, day: today, now });
      return { activatedPollId: due.id };
    });
  } catch (error) {
    if (error instanceof NothingToDo) return { activatedPollId: null };
    throw error;
  }
}

/** Makes a poll the active one at once, whatever its date, as staff do with "Make Active". */
export async function activatePollNow(db: Db, pollId: number, now: Date, site: SiteClock): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const target = await trx.selectFrom('polls').select('status').where('id', '=', pollId).executeTakeFirst();
    if (!target) return false;
    if (target.status !== 'active') await goLive(trx, pollId, now, site);
    return true;
  });
}

/**
 * Puts a poll live now, retiring the current one and queueing the day's e-mail. Run it in a
 * transaction.
 */
export async function goLive(db: Db, pollId: number, now: Date, site: SiteClock): Promise<void> {
  const today = localDateAt(now, site.timeZone);
  const previousPollId = await currentActiveId(db);
  await makeActive(db, pollId, now, today);
  await enqueueDaily(db, { pollId, previousPollId, day: today, now });
}
