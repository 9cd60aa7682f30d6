/**
 * The daily rhythm (DESIGN.md): on a new day, the poll scheduled for that day goes live and the
 * one before becomes a past poll; with nothing scheduled, the current poll stays. A poll whose
 * day passed without it going live (the site was down that day) never goes live by itself:
 * staff see it as missed and choose. Safe to run any number of times, from any number of
 * instances: each change holds the schedule lock, so the second finds nothing left to do.
 *
 * Whenever a poll goes live, the day's e-mail to subscribers is queued in the same
 * transaction, so it exists exactly when the switch does (one per subscriber and day).
 */
import { localDateAt, type SiteClock } from '../../shared/time.js';
import type { Db } from '../db/connection.js';
import { enqueueDaily } from '../email/outbox.repository.js';
import { findActivePollId, findPollStatus, findScheduledFor, lockSchedule, makeActive } from './polls.repository.js';

export interface Transition {
  /** The poll that went live, if one did. */
  activatedPollId: number | null;
}

export async function runDailyTransition(db: Db, now: Date, site: SiteClock): Promise<Transition> {
  const today = localDateAt(now, site.timeZone);
  return db.transaction().execute(async (trx) => {
    await lockSchedule(trx);
    const due = await findScheduledFor(trx, today);
    if (!due) return { activatedPollId: null };
    await goLive(trx, due.id, now, site);
    return { activatedPollId: due.id };
  });
}

/**
 * Makes a poll the active one at once, whatever its date, as staff do with "Make Active".
 * Pressing it twice, or on two instances at once, is the same as pressing it once.
 */
export async function activatePollNow(db: Db, pollId: number, now: Date, site: SiteClock): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockSchedule(trx);
    const status = await findPollStatus(trx, pollId);
    if (!status) return false;
    if (status !== 'active') await goLive(trx, pollId, now, site);
    return true;
  });
}

/**
 * Puts a poll live now, retiring the current one and queueing the day's e-mail. Run it in a
 * transaction that holds the schedule lock.
 */
export async function goLive(db: Db, pollId: number, now: Date, site: SiteClock): Promise<void> {
  const today = localDateAt(now, site.timeZone);
  const previousPollId = await findActivePollId(db);
  await makeActive(db, pollId, now, today);
  await enqueueDaily(db, { pollId, previousPollId, day: today, now });
}
