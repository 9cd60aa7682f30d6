/**
 * What staff do with polls, and the rules that keep the daily rhythm sound: a poll dated today
 * goes live at once, a later date schedules it, one poll per day, no dates in the past, and a
 * poll's options stay as they were once anyone has voted on them. Every change is a change to
 * the schedule (polls/schedule.service.ts), which holds its lock, so staff on two instances, or
 * staff and the midnight switch, never collide.
 */
import type { AdminPoll, VoteRecord, VotesSummary } from '../../shared/api.js';
import type { PollDraft } from '../../shared/schemas.js';
import { localDateAt } from '../../shared/time.js';
import type { Db } from '../db/connection.js';
import { optionLabels, sameAnswers, toAdminPoll, toVotesSummary, totalVotes, type PollRecord } from '../polls/poll.js';
import {
  deletePoll,
  findPollById,
  findPollByNumber,
  findScheduledFor,
  insertPoll,
  linkToEarlierRun,
  listAllPolls,
  pollNumbersOf,
  updatePoll,
} from '../polls/polls.repository.js';
import { setPollTopics, topicIdsOf, topicsOfPolls } from '../polls/poll-topics.repository.js';
import type { Activation, ScheduleService, Transition } from '../polls/schedule.service.js';
import type { ServiceDeps } from '../service-deps.js';
import { emailCountsByOption, votesPage, type VoterEmails } from '../votes/votes.repository.js';
import type { AuditWrite } from '../staff/audit.js';
import { csvFileName, votesCsv } from './votes-export.js';

/**
 * Votes read per query when a whole poll is listed or exported. Small pages make little garbage:
 * streaming the CSV of a million votes took at most 4 MB more heap at 1,000 rows a page, 19 MB
 * at 5,000 (and was faster).
 */
export const VOTES_PAGE_SIZE = 1000;

export type SaveRefusal =
  | 'not-found'
  | 'date-in-past'
  | 'date-taken'
  | 'date-locked'
  | 'options-locked'
  | 'asked-before-unknown'
  | 'asked-before-live'
  | 'asked-before-not-earlier'
  | 'asked-before-options'
  | 'topic-unknown';

/** The run "Asked before as poll #" names, for the refusal to say what is wrong with it. */
export interface EarlierRun {
  pollNumber: number;
  options: string[];
}

type Refusal = { outcome: SaveRefusal; run?: EarlierRun };

/**
 * The ids of the draft's topics, read before anything is written (a refusal writes nothing):
 * null when the draft names none (an edit keeps the poll's), a refusal for a slug no topic has.
 */
async function draftTopics(db: Db, draft: PollDraft): Promise<{ ids: number[] | null } | Refusal> {
  if (draft.topics === undefined) return { ids: null };
  const ids = await topicIdsOf(db, draft.topics);
  return ids ? { ids } : { outcome: 'topic-unknown' };
}

export type PollRemoval = 'deleted' | 'not-found' | 'has-votes';

export type SaveResult = { outcome: 'live' | 'scheduled' | 'updated'; poll: AdminPoll } | Refusal;

const sameOptions = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The earlier run a draft names in "Asked before as poll #", if it may ask it again: a past
 * poll that went live before `liveDate`, with the same answers (case and spaces aside). Today's
 * poll is not one yet: its results are not final, and its options may still change until its
 * first vote, so a link made now could join runs that no longer ask the same thing.
 */
async function earlierRun(db: Db, draft: PollDraft, liveDate: string): Promise<{ run: PollRecord | null } | Refusal> {
  if (draft.askedBefore === null) return { run: null };
  const run = await findPollByNumber(db, draft.askedBefore);
  if (!run || run.status === 'scheduled')
    return { outcome: 'asked-before-unknown', run: { pollNumber: draft.askedBefore, options: [] } };
  const named = { pollNumber: run.pollNumber, options: optionLabels(run) };
  if (run.status === 'active') return { outcome: 'asked-before-live', run: named };
  if (run.liveDate >= liveDate) return { outcome: 'asked-before-not-earlier', run: named };
  if (!sameAnswers(optionLabels(run), draft.options)) return { outcome: 'asked-before-options', run: named };
  return { run };
}

export function createAdminPollsService({ db, clock, site }: ServiceDeps, schedule: ScheduleService) {
  const today = () => localDateAt(clock.now(), site.timeZone);

  /** A poll's votes in the order they were cast, a page at a time. */
  async function* pagesOf(pollId: number, emails: VoterEmails): AsyncGenerator<VoteRecord[]> {
    let afterId = 0;
    for (;;) {
      const page = await votesPage(db, pollId, { afterId, limit: VOTES_PAGE_SIZE, emails });
      if (page.length > 0) yield page;
      const last = page.at(-1);
      if (!last || page.length < VOTES_PAGE_SIZE) return;
      afterId = last.id;
    }
  }

  /** The saved poll, read back. */
  async function saved(id: number, outcome: 'live' | 'scheduled' | 'updated'): Promise<SaveResult> {
    const record = await findPollById(db, id);
    if (!record) return { outcome: 'not-found' };
    const numbers = await pollNumbersOf(db, record.askedBeforeId === null ? [] : [record.askedBeforeId]);
    const topics = (await topicsOfPolls(db, [id])).get(id) ?? [];
    return {
      outcome,
      poll: { ...toAdminPoll(record, today(), numbers.get(record.askedBeforeId ?? 0) ?? null), topics },
    };
  }

  return {
    async list(): Promise<AdminPoll[]> {
      const day = today();
      const polls = await listAllPolls(db);
      const numbers = new Map(polls.map((poll) => [poll.id, poll.pollNumber]));
      const topics = await topicsOfPolls(
        db,
        polls.map((poll) => poll.id),
      );
      return polls.map((poll) => ({
        ...toAdminPoll(poll, day, numbers.get(poll.askedBeforeId ?? 0) ?? null),
        topics: topics.get(poll.id) ?? [],
      }));
    },

    async create(draft: PollDraft, audit?: AuditWrite): Promise<SaveResult> {
      const result = await schedule.change(
        async ({ trx, now, today, goLive }): Promise<Refusal | { id: number; outcome: 'live' | 'scheduled' }> => {
          if (draft.liveDate < today) return { outcome: 'date-in-past' };
          if (await findScheduledFor(trx, draft.liveDate)) return { outcome: 'date-taken' };
          const earlier = await earlierRun(trx, draft, draft.liveDate);
          if ('outcome' in earlier) return earlier;
          const topics = await draftTopics(trx, draft);
          if ('outcome' in topics) return topics;
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
          if (earlier.run) await linkToEarlierRun(trx, created, earlier.run, now);
          if (topics.ids) await setPollTopics(trx, created.id, topics.ids);
          const live = draft.liveDate === today;
          if (live) await goLive(created.id);
          await audit?.(trx, `poll ${created.id}`);
          return { id: created.id, outcome: live ? 'live' : 'scheduled' };
        },
      );
      return 'id' in result ? saved(result.id, result.outcome) : result;
    },

    async update(id: number, draft: PollDraft, audit?: AuditWrite): Promise<SaveResult> {
      const result = await schedule.change(
        async ({ trx, now, today, goLive }): Promise<Refusal | 'live' | 'updated'> => {
          const existing = await findPollById(trx, id);
          if (!existing) return { outcome: 'not-found' };
          const optionsChanged = !sameOptions(optionLabels(existing), draft.options);
          if (optionsChanged && totalVotes(existing) > 0) return { outcome: 'options-locked' };
          const scheduled = existing.status === 'scheduled';
          if (!scheduled && draft.liveDate !== existing.liveDate) return { outcome: 'date-locked' };
          if (scheduled && draft.liveDate < today) return { outcome: 'date-in-past' };
          const sameDay = scheduled ? await findScheduledFor(trx, draft.liveDate) : undefined;
          if (sameDay && sameDay.id !== id) return { outcome: 'date-taken' };
          const earlier = await earlierRun(trx, draft, draft.liveDate);
          if ('outcome' in earlier) return earlier;
          const topics = await draftTopics(trx, draft);
          if ('outcome' in topics) return topics;
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
          if (topics.ids) await setPollTopics(trx, id, topics.ids);
          if ((earlier.run?.id ?? null) !== existing.askedBeforeId)
            await linkToEarlierRun(trx, existing, earlier.run, now);
          const live = scheduled && draft.liveDate === today;
          if (live) await goLive(id);
          await audit?.(trx);
          return live ? 'live' : 'updated';
        },
      );
      return result === 'live' || result === 'updated' ? saved(id, result) : result;
    },

    /**
     * Deletes a poll and its votes. Without `withVotes` (an editor, or an owner not signed in
     * recently) only a poll nobody has voted on: one with votes is 'has-votes', untouched.
     */
    remove(id: number, { withVotes }: { withVotes: boolean }, audit?: AuditWrite): Promise<PollRemoval> {
      return schedule.change(async ({ trx }) => {
        if (await deletePoll(trx, id, { onlyWithoutVotes: !withVotes })) {
          await audit?.(trx);
          return 'deleted';
        }
        return (await findPollById(trx, id)) ? 'has-votes' : 'not-found';
      });
    },

    /** "Make Active": the poll goes live now, as if its day had come. */
    activate(id: number, replacing?: number | null, audit?: AuditWrite): Promise<Activation> {
      return schedule.activate(id, replacing, audit);
    },

    /** "Update poll statuses": the daily switch, now. */
    updateStatuses(audit?: AuditWrite): Promise<Transition> {
      return schedule.switchDay(audit);
    },

    /** Every vote of a poll (or those with an e-mail), page by page; undefined for an unknown poll. */
    async votePages(id: number, emails: VoterEmails): Promise<AsyncIterable<VoteRecord[]> | undefined> {
      if (!(await findPollById(db, id))) return undefined;
      return pagesOf(id, emails);
    },

    /** One page of a poll's votes, after vote `after`; undefined for an unknown poll. */
    async votesPage(
      id: number,
      query: { after: number; limit: number; emails: VoterEmails },
    ): Promise<VoteRecord[] | undefined> {
      if (!(await findPollById(db, id))) return undefined;
      return votesPage(db, id, { afterId: query.after, limit: query.limit, emails: query.emails });
    },

    /** Votes and e-mails per option, for the voter section. */
    async votesSummary(id: number): Promise<VotesSummary | undefined> {
      const poll = await findPollById(db, id);
      if (!poll) return undefined;
      return toVotesSummary(poll, await emailCountsByOption(db, id));
    },

    /** The CSV of every vote (the Voter Email column empty unless `withEmail`), written as it is read; undefined for an unknown poll. */
    async votesCsv(
      id: number,
      withEmail = false,
    ): Promise<{ fileName: string; chunks: AsyncIterable<string> } | undefined> {
      const poll = await findPollById(db, id);
      if (!poll) return undefined;
      return {
        fileName: csvFileName(id, clock.now(), site.timeZone),
        chunks: votesCsv(
          { question: poll.question, options: optionLabels(poll) },
          pagesOf(id, withEmail ? 'included' : 'left-out'),
          site.timeZone,
        ),
      };
    },
  };
}

export type AdminPollsService = ReturnType<typeof createAdminPollsService>;
