/**
 * What staff review sees in the demo: the networks votes came from and their signals, as the
 * vote path records them, and two flagged runs of votes on today's poll. One is a staff meeting
 * (45 teachers of one school in 8 minutes, human timing, their own minds: watched, nothing
 * wrong); the other is stuffing to review: 400 votes from one network in 6 minutes, 95% for the
 * option nobody else picks, no ballot, a fresh cookie every time, one every 0.9 s like a loop.
 * The detector challenged it late (the demo's story: after 280 of them were counted), so there
 * is something to discount and held votes to leave alone.
 */
import type { LocalDate, SiteClock } from '../../shared/time.js';
import { instantAt } from '../../shared/time.js';
import type { Db } from '../db/connection.js';
import type { VoteStatus } from '../db/tables.js';
import type { PollRecord } from '../polls/poll.js';

/** Signals are emptied after 30 days; older votes keep none. */
const SIGNALS_KEPT_MS = 30 * 24 * 3_600_000;
const MINUTE_MS = 60_000;

export const STUFFED_BURST = { votes: 400, counted: 280, everyMs: 900, option: 3, share: 0.95 } as const;
export const STAFF_MEETING = { votes: 45, minutes: 8 } as const;

/** A bucket as the vote path writes one: 16 hex digits, a keyed hash under the day's key. */
const bucketOf = (random: () => number) =>
  Array.from({ length: 16 }, () => Math.floor(random() * 16).toString(16)).join('');

/** Human time from page to vote: 2.5 s to 90 s, most of them short. */
const humanPageMs = (random: () => number) => Math.round(Math.exp(Math.log(2_500) + random() ** 1.6 * Math.log(36)));

/** A returning visitor's cookie is hours to months old; about a third are new. */
const humanCookieAge = (random: () => number) =>
  random() < 0.3 ? null : Math.round(3_600 + random() ** 2 * 200 * 86_400);

/**
 * Gives the votes of the last 30 days their networks and signals: about a third from one of a
 * dozen schools a day, the rest from homes and phones; a few without a ballot (an old tab, a
 * link from an embed). Keys change daily, so each day's networks are new.
 */
export async function recordNetworks(db: Db, polls: PollRecord[], now: Date, random: () => number): Promise<void> {
  const since = new Date(now.getTime() - SIGNALS_KEPT_MS).toISOString();
  for (const poll of polls) {
    const votes = await db
      .selectFrom('votes')
      .select('id')
      .where('poll_id', '=', poll.id)
      .where('created_at', '>=', since)
      .orderBy('id')
      .execute();
    const schools = Array.from({ length: 12 }, () => bucketOf(random));
    const homes = Array.from({ length: Math.max(20, Math.round(votes.length * 0.5)) }, () => bucketOf(random));
    for (const { id } of votes) {
      const fromSchool = random() < 0.35;
      // Bigger schools send more votes: the first of the dozen most.
      const bucket = fromSchool
        ? (schools[Math.floor(random() ** 2 * schools.length)] ?? '')
        : (homes[Math.floor(random() * homes.length)] ?? '');
      await db
        .updateTable('votes')
        .set({
          bucket,
          page_ms: random() < 0.04 ? null : humanPageMs(random),
          cookie_age_s: humanCookieAge(random),
        })
        .where('id', '=', id)
        .execute();
    }
  }
}

interface FlaggedRun {
  bucket: string;
  votes: {
    optionIndex: number;
    createdAt: string;
    status: VoteStatus;
    pageMs: number | null;
    cookieAgeS: number | null;
  }[];
}

async function insertRun(db: Db, poll: PollRecord, day: LocalDate, run: FlaggedRun, voterPrefix: string) {
  for (let start = 0; start < run.votes.length; start += 200) {
    await db
      .insertInto('votes')
      .values(
        run.votes.slice(start, start + 200).map((vote, i) => ({
          poll_id: poll.id,
          voter_id: `${voterPrefix}${String(start + i).padStart(14, '0')}`,
          option_index: vote.optionIndex,
          voter_email: null,
          voted_on: day,
          created_at: vote.createdAt,
          status: vote.status,
          bucket: run.bucket,
          page_ms: vote.pageMs,
          cookie_age_s: vote.cookieAgeS,
        })),
      )
      .execute();
  }
}

/**
 * The staff meeting and the stuffed burst on today's poll, before `now` (or the close time),
 * and what the detector wrote of each. Gives how many votes they added.
 */
export async function addFlaggedRuns(
  db: Db,
  {
    poll,
    day,
    now,
    site,
    weights,
    random,
  }: {
    poll: PollRecord;
    day: LocalDate;
    now: Date;
    site: SiteClock;
    weights: readonly number[];
    random: () => number;
  },
): Promise<number> {
  const midnight = instantAt(day, { hours: 0, minutes: 0 }, site.timeZone).getTime();
  const until = Math.min(now.getTime(), instantAt(day, site.votingClosesAt, site.timeZone).getTime());
  const total = weights.reduce((a, b) => a + b, 0);
  const pick = () => {
    let r = random() * total;
    for (const [i, weight] of weights.entries()) if ((r -= weight) < 0) return i;
    return weights.length - 1;
  };

  // The staff meeting, about two and a half hours ago.
  const meetingStart = Math.max(midnight + MINUTE_MS, until - 150 * MINUTE_MS);
  const meeting: FlaggedRun = {
    bucket: bucketOf(random),
    votes: Array.from({ length: STAFF_MEETING.votes }, () => ({
      optionIndex: pick(),
      createdAt: new Date(meetingStart + random() * STAFF_MEETING.minutes * MINUTE_MS).toISOString(),
      status: 'counted' as const,
      pageMs: humanPageMs(random),
      cookieAgeS: random() < 0.15 ? null : humanCookieAge(random),
    })).sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1)),
  };

  // The burst, ending a quarter of an hour ago: its challenge still on.
  const burstStart = Math.max(midnight + 2 * MINUTE_MS, until - 21 * MINUTE_MS);
  const burst: FlaggedRun = {
    bucket: bucketOf(random),
    votes: Array.from({ length: STUFFED_BURST.votes }, (_, i) => ({
      optionIndex: random() < STUFFED_BURST.share ? STUFFED_BURST.option : pick(),
      createdAt: new Date(burstStart + i * STUFFED_BURST.everyMs + Math.round(random() * 40)).toISOString(),
      status: i < STUFFED_BURST.counted ? ('counted' as const) : ('held' as const),
      pageMs: null,
      cookieAgeS: null,
    })),
  };

  await db.transaction().execute(async (trx) => {
    await insertRun(trx, poll, day, meeting, 'demo-meeting-');
    await insertRun(trx, poll, day, burst, 'demo-burst-');
    const at = (run: FlaggedRun, i: number) => run.votes[Math.min(i, run.votes.length - 1)]?.createdAt ?? '';
    const last = (run: FlaggedRun) => at(run, run.votes.length - 1);
    await trx
      .insertInto('integrity_buckets')
      .values([
        {
          poll_id: poll.id,
          bucket: meeting.bucket,
          state: 'watch',
          first_flagged_at: at(meeting, 29),
          challenged_since: null,
          challenged_until: null,
          updated_at: last(meeting),
          reasons: 'volume',
        },
        {
          poll_id: poll.id,
          bucket: burst.bucket,
          state: 'challenge',
          first_flagged_at: at(burst, 29),
          challenged_since: at(burst, STUFFED_BURST.counted),
          challenged_until: new Date(Date.parse(last(burst)) + 30 * MINUTE_MS).toISOString(),
          updated_at: last(burst),
          reasons: 'volume,skew,no-ballot,regular',
        },
      ])
      .execute();
  });
  return meeting.votes.length + burst.votes.length;
}
