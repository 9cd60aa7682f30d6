/**
 * The daily rhythm (DESIGN.md): on a new day, the poll scheduled for it goes live and the one
 * before becomes a past poll; with nothing scheduled, the current poll stays. Safe to run
 * any number of times, and from several instances at once: each change is conditional on the
 * state it expects, inside one transaction, so at most one instance's switch takes effect.
 */
import { localDateAt, type SiteClock } from '../../shared/time.js';
import type { Db } from '../db/connection.js';
import { makeActive } from './polls.repository.js';

export interface Transition {
  /** The poll that went live, if one did. */
  activatedPollId: number | null;
}

class NothingToDo extends Error {}

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
      await trx.updateTable('polls').set({ status: 'past', updated_at: now.toISOString() }).where('status', '=', 'active').execute();
      const activated = await trx
        .updateTable('polls')
        .set({ status: 'active', went_live_at: now.toISOString(), updated_at: now.toISOString() })
        .where('id', '=', due.id)
        .where('status', '=', 'scheduled') // another instance may have switched first
        .executeTakeFirst();
      if (activated.numUpdatedRows === 0n) throw new NothingToDo();
      return { activatedPollId: due.id };
    });
  } catch (error) {
    if (error instanceof NothingToDo) return { activatedPollId: null };
    throw error;
  }
}

/** Makes a poll the active one at once, whatever its date, as staff do with "Make Active". */
export async function activatePollNow(db: Db, pollId: number, now: Date, site: SiteClock): Promise<boolean> {
  const today = localDateAt(now, site.timeZone);
  return db.transaction().execute(async (trx) => {
    const target = await trx.selectFrom('polls').select('status').where('id', '=', pollId).executeTakeFirst();
    if (!target) return false;
    if (target.status !== 'active') await makeActive(trx, pollId, now, today);
    return true;
  });
}
