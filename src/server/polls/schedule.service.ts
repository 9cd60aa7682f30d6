/**
 * The schedule: which poll is live, and when the next one goes live (DESIGN.md, the daily
 * rhythm). On a new day the poll scheduled for that day goes live and the one before becomes a
 * past poll; with nothing scheduled, the current poll stays. A poll whose day passed without it
 * going live (the site was down that day) never goes live by itself: staff see it as missed
 * and choose ("Make Active").
 *
 * Every change to the schedule (the daily switch, Make Active, and staff creating, editing or
 * deleting polls) runs in one transaction holding the schedule lock, so changes from any number
 * of instances take turns and each sees the state the last one left: running the switch twice
 * is the same as running it once. Whenever a poll goes live, the day's e-mail to subscribers is
 * queued in that same transaction, so it exists exactly when the switch does (one per
 * subscriber and day). After the change, this instance's copy of the active poll is dropped,
 * and the outbox is told when there is mail to send.
 */
import { localDateAt, type LocalDate } from '../../shared/time.js';
import type { Db } from '../db/connection.js';
import { enqueueDaily } from '../email/outbox.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { findActivePollId, findPollStatus, findScheduledFor, lockSchedule, makeActive } from './polls.repository.js';

/** What "Make Active" did: the poll is live now, or it is unknown, or the schedule moved first. */
export type Activation = 'activated' | 'not-found' | 'already-active' | 'superseded';

export interface Transition {
  /** The poll that went live, if one did. */
  activatedPollId: number | null;
}

/** A change to the schedule, under way: its transaction (holding the lock) and its moment. */
export interface ScheduleChange {
  trx: Db;
  now: Date;
  /** `now`'s date in the site time zone. */
  today: LocalDate;
  /** Puts a poll live now, retiring the current one and queueing the day's e-mail. */
  goLive: (pollId: number) => Promise<void>;
}

export function createScheduleService({
  db,
  clock,
  site,
  activePoll,
  mailQueued,
}: Pick<ServiceDeps, 'db' | 'clock' | 'site' | 'activePoll' | 'mailQueued'>) {
  /**
   * Runs `work` as one change to the schedule. What it returns is committed; only a fault
   * (a thrown error) rolls it back. So a change that may be refused decides that before it
   * writes anything.
   */
  async function change<T>(work: (change: ScheduleChange) => Promise<T>): Promise<T> {
    const now = clock.now();
    const today = localDateAt(now, site.timeZone);
    const wentLive: number[] = [];
    const result = await db.transaction().execute(async (trx) => {
      await lockSchedule(trx);
      return work({
        trx,
        now,
        today,
        goLive: async (pollId) => {
          const previousPollId = await makeActive(trx, pollId, now, today);
          await enqueueDaily(trx, { pollId, previousPollId, day: today, now });
          wentLive.push(pollId);
        },
      });
    });
    activePoll.invalidate();
    if (wentLive.length > 0) mailQueued();
    return result;
  }

  return {
    change,

    /** The daily switch: puts today's scheduled poll live, if there is one and it is not yet. */
    switchDay(audit?: (trx: Db, target?: string) => Promise<void>): Promise<Transition> {
      return change(async ({ trx, today, goLive }) => {
        const due = await findScheduledFor(trx, today);
        if (!due) return { activatedPollId: null };
        await goLive(due.id);
        await audit?.(trx, `poll ${due.id}`);
        return { activatedPollId: due.id };
      });
    },

    /**
     * Makes a poll the active one at once, whatever its date, as staff do with "Make Active".
     * With `replacing` (the poll staff saw active and confirmed retiring, or null for none), it
     * is refused when another poll went live first: of two staff pressing at once, on any
     * instances, the first succeeds and the second learns the schedule moved. Without it,
     * pressing twice is the same as pressing once.
     */
    activate(
      pollId: number,
      replacing?: number | null,
      audit?: (trx: Db, target?: string) => Promise<void>,
    ): Promise<Activation> {
      return change(async ({ trx, goLive }) => {
        const status = await findPollStatus(trx, pollId);
        if (!status) return 'not-found';
        if (replacing !== undefined && ((await findActivePollId(trx)) ?? null) !== replacing) {
          return status === 'active' ? 'already-active' : 'superseded';
        }
        if (status !== 'active') {
          await goLive(pollId);
          await audit?.(trx);
        }
        return 'activated';
      });
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
