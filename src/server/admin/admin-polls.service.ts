/**
 * What staff do with polls, and the rules that keep the daily rhythm sound: a poll dated today
 * goes live at once, a later date schedules it, one poll per day, no dates in the past, and a
 * poll's options stay as they were once anyone has voted on them. Every change holds the
 * schedule lock, so staff on two instances, or staff and the midnight switch, never collide.
 */
import type { AdminPoll, VoteRecord, VotesSummary } from '../../shared/api.js';
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
import { emailCountsByOption, votesPage, type VoteRow } from '../votes/votes.repository.js';
import { csvFileName, votesCsv } from './votes-export.js';

/**
 * Votes read per query when a whole poll is listed or exported. Small pages make little garbage:
 * streaming the CSV of a million votes took at most 4 MB more heap at 1,000 rows a page, 19 MB
 * at 5,000 (and was faster).
 */
export const VOTES_PAGE_SIZE = 1000;

const toVoteRecord = ({ id, voterEmail, optionIndex, createdAt }: VoteRow): VoteRecord => ({ id, voterEmail, optionIndex, createdAt });

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

  /** A poll's votes in the order they were cast, a page at a time. */
  async function* pagesOf(pollId: number, withEmail: boolean): AsyncGenerator<VoteRow[]> {
    let afterId = 0;
    for (;;) {
      const page = await votesPage(db, pollId, { afterId, limit: VOTES_PAGE_SIZE, withEmail });
      if (page.length > 0) yield page;
      const last = page.at(-1);
      if (!last || page.length < VOTES_PAGE_SIZE) return;
      afterId = last.id;
    }
  }

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

    /** Every vote of a poll (or those with an e-mail), page by page; undefined for an unknown poll. */
    async votePages(id: number, withEmail: boolean): Promise<AsyncIterable<VoteRecord[]> | undefined> {
      if (!(await findPollById(db, id))) return undefined;
      return (async function* () {
        for await (const page of pagesOf(id, withEmail)) yield page.map(toVoteRecord);
      })();
    },

    /** One page of a poll's votes, after vote `after`; undefined for an unknown poll. */
    async votesPage(id: number, query: { after: number; limit: number; withEmail: boolean }): Promise<VoteRecord[] | undefined> {
      if (!(await findPollById(db, id))) return undefined;
      return (await votesPage(db, id, { afterId: query.after, limit: query.limit, withEmail: query.withEmail })).map(toVoteRecord);
    },

    /** Votes and e-mails per option, for the voter section. */
    async votesSummary(id: number): Promise<VotesSummary | undefined> {
      const poll = await findPollById(db, id);
      if (!poll) return undefined;
      const withEmail = await emailCountsByOption(db, id);
      const options = poll.options.map((option, index) => ({ option: option.label, votes: option.votes, withEmail: withEmail.get(index) ?? 0 }));
      return {
        totalVotes: totalOf(poll),
        withEmail: options.reduce((sum, option) => sum + option.withEmail, 0),
        options,
      };
    },

    /** The CSV of every vote, written as it is read; undefined for an unknown poll. */
    async votesCsv(id: number): Promise<{ fileName: string; chunks: AsyncIterable<string> } | undefined> {
      const poll = await findPollById(db, id);
      if (!poll) return undefined;
      return {
        fileName: csvFileName(id, clock.now(), site.timeZone),
        chunks: votesCsv({ question: poll.question, options: poll.options.map((o) => o.label) }, pagesOf(id, false), site.timeZone),
      };
    },
  };
}

export type AdminPollsService = ReturnType<typeof createAdminPollsService>;
