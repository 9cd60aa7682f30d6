/**
 * What staff do with polls, and the rules that keep the daily rhythm sound: a poll dated today
 * goes live at once, a later date schedules it, one poll per day, no dates in the past, and a
 * poll's options stay as they were once anyone has voted on them. Every change holds the
 * schedule lock, so staff on two instances, or staff and the midnight switch, never collide.
 */
import type { AdminPoll, VoteRecord } from '../../shared/api.js';
import type { PollDraft } from '../../shared/schemas.js';
import { localDateAt } from '../../shared/time.js';
import { isUniqueViolation } from '../db/errors.js';
import { activatePollNow, goLive, runDailyTransition, type Transition } from '../polls/daily-transition.js';
import {
  deletePoll,
  findPollById,
  insertPoll,
  listAllPolls,
  lockSchedule,
  updatePoll,
  type PollRecord,
} from '../polls/polls.repository.js';
import { toPoll, totalOf } from '../polls/polls.service.js';
import type { ServiceDeps } from '../service-deps.js';
import { votesWithEmail } from '../votes/votes.repository.js';

export type SaveRefusal = 'not-found' | 'date-in-past' | 'date-taken' | 'date-locked' | 'options-locked';

export type SaveResult = { outcome: 'live' | 'scheduled' | 'updated'; poll: AdminPoll } | { outcome: SaveRefusal };

/** A scheduled poll whose day has passed without it going live is "missed": staff decide. */
export function toAdminPoll(record: PollRecord, today: string): AdminPoll {
  return {
    ...toPoll(record),
    status: record.status === 'scheduled' && record.liveDate < today ? 'missed' : record.status,
    totalVotes: totalOf(record),
  };
}

const sameOptions = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function createAdminPollsService({ db, clock, site, activePoll, mailQueued }: ServiceDeps) {
  const today = () => localDateAt(clock.now(), site.timeZone);

  /** The saved poll, read back, with the active-poll copy of this instance refreshed. */
  async function saved(id: number, outcome: 'live' | 'scheduled' | 'updated'): Promise<SaveResult> {
    activePoll.invalidate();
    const record = await findPollById(db, id);
    return record ? { outcome, poll: toAdminPoll(record, today()) } : { outcome: 'not-found' };
  }

  return {
    async list(): Promise<AdminPoll[]> {
      const day = today();
      return (await listAllPolls(db)).map((record) => toAdminPoll(record, day));
    },

    async create(draft: PollDraft): Promise<SaveResult> {
      const now = clock.now();
      const day = today();
      if (draft.liveDate < day) return { outcome: 'date-in-past' };
      const goesLive = draft.liveDate === day;
      try {
        const poll = await db.transaction().execute(async (trx) => {
          await lockSchedule(trx);
          const created = await insertPoll(
            trx,
            {
              question: draft.question,
              description: draft.description ?? null,
              options: draft.options,
              liveDate: draft.liveDate,
              status: 'scheduled',
            },
            now,
          );
          if (goesLive) await goLive(trx, created.id, now, site);
          return created;
        });
        if (goesLive) mailQueued();
        return await saved(poll.id, goesLive ? 'live' : 'scheduled');
      } catch (error) {
        if (isUniqueViolation(error)) return { outcome: 'date-taken' };
        throw error;
      }
    },

    async update(id: number, draft: PollDraft): Promise<SaveResult> {
      const now = clock.now();
      const day = today();
      try {
        const result = await db.transaction().execute(async (trx): Promise<SaveRefusal | 'live' | 'updated'> => {
          await lockSchedule(trx);
          const existing = await findPollById(trx, id);
          if (!existing) return 'not-found';
          const optionsChanged = !sameOptions(
            existing.options.map((option) => option.label),
            draft.options,
          );
          if (optionsChanged && totalOf(existing) > 0) return 'options-locked';
          const scheduled = existing.status === 'scheduled';
          if (!scheduled && draft.liveDate !== existing.liveDate) return 'date-locked';
          if (scheduled && draft.liveDate < day) return 'date-in-past';
          const goesLive = scheduled && draft.liveDate === day;
          await updatePoll(
            trx,
            id,
            {
              question: draft.question,
              description: draft.description ?? null,
              liveDate: draft.liveDate,
              ...(optionsChanged ? { options: draft.options } : {}),
            },
            now,
          );
          if (goesLive) await goLive(trx, id, now, site);
          return goesLive ? 'live' : 'updated';
        });
        if (result !== 'live' && result !== 'updated') return { outcome: result };
        if (result === 'live') mailQueued();
        return await saved(id, result);
      } catch (error) {
        if (isUniqueViolation(error)) return { outcome: 'date-taken' };
        throw error;
      }
    },

    async remove(id: number): Promise<boolean> {
      const deleted = await db.transaction().execute(async (trx) => {
        await lockSchedule(trx);
        return deletePoll(trx, id);
      });
      activePoll.invalidate();
      return deleted;
    },

    async activate(id: number): Promise<boolean> {
      const done = await activatePollNow(db, id, clock.now(), site);
      activePoll.invalidate();
      mailQueued();
      return done;
    },

    async updateStatuses(): Promise<Transition> {
      const transition = await runDailyTransition(db, clock.now(), site);
      activePoll.invalidate();
      if (transition.activatedPollId !== null) mailQueued();
      return transition;
    },

    /** The votes of a poll that carry an e-mail; undefined for an unknown poll. */
    async votes(id: number): Promise<VoteRecord[] | undefined> {
      if (!(await findPollById(db, id))) return undefined;
      return votesWithEmail(db, id);
    },
  };
}

export type AdminPollsService = ReturnType<typeof createAdminPollsService>;
