/**
 * Fills an empty database with the demo set, dated around `now`: today's poll with votes (its
 * question asked twice before, a series of three), a dozen past polls, three scheduled ones,
 * suggestions and a few subscribers. Votes come from a pool of regular voters (so streaks
 * exist) and one-off visitors, spread by each poll's weights. Most voters describe themselves
 * in the profile, and some groups lean their own way, so the breakdowns show real differences.
 * A fixed seed makes every run the same.
 */
import { isoWeekOf } from '../../shared/iso-week.js';
import { queueWeek } from '../digest/digest.repository.js';
import { writeNote } from '../notes/notes.repository.js';
import { consentText } from '../../shared/consent.js';
import { PROFILE_DIMENSIONS, type ProfileDimension } from '../../shared/profile.js';
import { addDays, instantAt, localDateAt, type SiteClock } from '../../shared/time.js';
import type { Db } from '../db/connection.js';
import { insertPoll, linkToEarlierRun } from '../polls/polls.repository.js';
import type { PollRecord } from '../polls/poll.js';
import { insertPendingSubscriber } from '../subscriptions/subscriptions.repository.js';
import { insertSuggestion } from '../suggestions/suggestions.repository.js';
import { setPollTopics, topicIdsOf } from '../polls/poll-topics.repository.js';
import { demoTopicsOf } from './demo-topics.js';
import { insertVotes, type NewVote } from '../votes/votes.repository.js';
import {
  activePoll,
  activePollEarlierRuns,
  ANSWER_RATE,
  latestPastPollEarlierRuns,
  pastPolls,
  PROFILE_TAKE_UP,
  profileWeights,
  scheduledPolls,
  suggestions,
  type DemoPoll,
} from './demo-content.js';
import { addFlaggedRuns, recordNetworks } from './networks.js';
import { seededRandom } from './seeded-random.js';

export interface DemoSummary {
  polls: number;
  votes: number;
}

const REGULAR_VOTERS = 160;
const MIDNIGHT = { hours: 0, minutes: 0 };

export async function seedDemo(db: Db, now: Date, site: SiteClock): Promise<DemoSummary> {
  const random = seededRandom(2026);
  const today = localDateAt(now, site.timeZone);
  const voterId = (n: number) => `demo${String(n).padStart(18, '0')}`;
  let nextOneOff = REGULAR_VOTERS;
  let votes = 0;
  /** Each demo voter's answers, made up the first time they vote. */
  const profiles = new Map<string, Map<ProfileDimension, string>>();

  function pick(weights: number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    let r = random() * total;
    for (const [i, weight] of weights.entries()) {
      r -= weight;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  function profileOf(voter: string): Map<ProfileDimension, string> {
    let profile = profiles.get(voter);
    if (!profile) {
      profile = new Map();
      if (random() < PROFILE_TAKE_UP) {
        for (const { dimension, asked } of PROFILE_DIMENSIONS) {
          if (random() < ANSWER_RATE) profile.set(dimension, asked[pick(profileWeights[dimension])]?.id ?? asked[0].id);
        }
      }
      profiles.set(voter, profile);
    }
    return profile;
  }

  /** The weights this voter picks by: their group's lean on the poll, if it has one. */
  function weightsFor(poll: DemoPoll, voter: string): number[] {
    const profile = profileOf(voter);
    return poll.leans?.find((lean) => profile.get(lean.dimension) === lean.group)?.weights ?? poll.weights;
  }

  /** Votes between midnight and the close time of `day` (or now, for today). */
  function ballots(pollId: number, poll: DemoPoll, day: string): NewVote[] {
    const from = instantAt(day, MIDNIGHT, site.timeZone).getTime();
    const close = instantAt(day, site.votingClosesAt, site.timeZone).getTime();
    const until = Math.max(from + 60_000, Math.min(close, now.getTime()));
    const regulars = new Set<number>();
    return Array.from({ length: poll.votes }, () => {
      // Two in five votes come from regulars who vote most days; the rest are one-off visitors.
      let voter = nextOneOff;
      if (random() < 0.4) {
        const regular = Math.floor(random() * REGULAR_VOTERS);
        if (!regulars.has(regular)) {
          regulars.add(regular);
          voter = regular;
        }
      }
      if (voter === nextOneOff) nextOneOff += 1;
      return {
        pollId,
        voterId: voterId(voter),
        optionIndex: pick(weightsFor(poll, voterId(voter))),
        voterEmail: voter < REGULAR_VOTERS && voter % 4 === 0 ? `teacher${voter}@example.org` : null,
        votedOn: day,
        createdAt: new Date(from + random() * (until - from)).toISOString(),
      };
    });
  }

  /** Stores the profiles of voters not seen before, so the database counts their votes in their groups. */
  const stored = new Set<string>();
  async function storeProfiles(trx: Db, cast: NewVote[], at: string) {
    const answers = cast.flatMap(({ voterId: voter }) => {
      if (stored.has(voter)) return [];
      stored.add(voter);
      return [...profileOf(voter)].map(([dimension, value]) => ({
        voter_id: voter,
        dimension,
        group_value: value,
        updated_at: at,
      }));
    });
    for (let start = 0; start < answers.length; start += 2000) {
      await trx
        .insertInto('profile_answers')
        .values(answers.slice(start, start + 2000))
        .execute();
    }
  }

  async function addPoll(
    poll: DemoPoll,
    liveDate: string,
    status: 'active' | 'past' | 'scheduled',
  ): Promise<PollRecord> {
    return db.transaction().execute(async (trx) => {
      const created = await insertPoll(
        trx,
        {
          question: poll.question,
          description: poll.description,
          options: poll.options,
          liveDate,
          status,
          wentLiveAt: instantAt(liveDate, MIDNIGHT, site.timeZone).toISOString(),
        },
        new Date(instantAt(addDays(liveDate, -3), { hours: 15, minutes: 0 }, site.timeZone)),
      );
      await setPollTopics(trx, created.id, (await topicIdsOf(trx, demoTopicsOf(poll.question))) ?? []);
      if (status === 'scheduled') return created;
      live.push(created);
      const cast = ballots(created.id, poll, liveDate);
      await storeProfiles(trx, cast, created.createdAt);
      await insertVotes(trx, cast);
      votes += cast.length;
      return created;
    });
  }

  /** The polls that have been live, for their votes' networks. */
  const live: PollRecord[] = [];
  // Oldest first, so poll numbers rise with the dates as they would in real life.
  const earlierRuns: PollRecord[] = [];
  const latestPastRuns: PollRecord[] = [];
  const pastDays = [
    ...activePollEarlierRuns.map((run) => ({
      poll: { ...activePoll, ...run },
      daysAgo: run.daysAgo,
      runs: earlierRuns,
      note: undefined,
    })),
    ...latestPastPollEarlierRuns.map((run) => ({
      poll: { ...(pastPolls[0] as DemoPoll), ...run },
      daysAgo: run.daysAgo,
      runs: latestPastRuns,
      note: undefined,
    })),
    ...pastPolls.map((poll, i) => ({ poll, daysAgo: i + 1, runs: i === 0 ? latestPastRuns : null, note: poll.note })),
  ].sort((a, b) => b.daysAgo - a.daysAgo);
  for (const { poll, daysAgo, runs, note } of pastDays) {
    const day = addDays(today, -daysAgo);
    const created = await addPoll(poll, day, 'past');
    runs?.push(created);
    // Written the morning after the close, as an editor would.
    const noted = instantAt(addDays(day, 1), { hours: 9, minutes: 15 }, site.timeZone);
    if (note) await writeNote(db, { pollId: created.id, body: note, at: noted, by: null });
  }
  // Last week's digest went out, so its page and feed entry are there.
  await queueWeek(db, isoWeekOf(addDays(today, -7)), now);
  const todays = await addPoll(activePoll, today, 'active');
  // What staff review sees: networks and signals, and two flagged runs on today's poll.
  const networksRandom = seededRandom(25);
  await recordNetworks(db, live, now, networksRandom);
  votes += await addFlaggedRuns(db, {
    poll: todays,
    day: today,
    now,
    site,
    weights: activePoll.weights,
    random: networksRandom,
  });
  // Each run asks the one before again, as staff would link them; the first run starts the series.
  for (const runs of [[...earlierRuns, todays], latestPastRuns]) {
    const seriesId = runs[0]?.id ?? null;
    for (const [i, run] of runs.entries()) {
      const previous = runs[i - 1];
      // The first run starts the series when the second joins it; later ones are already in it.
      if (previous)
        await linkToEarlierRun(
          db,
          { id: run.id, seriesId: null },
          { id: previous.id, seriesId: i === 1 ? null : seriesId },
          now,
        );
    }
  }
  for (const [i, poll] of scheduledPolls.entries()) await addPoll(poll, addDays(today, i + 1), 'scheduled');

  for (const [i, suggestion] of suggestions.entries()) {
    const submitted = new Date(now.getTime() - (suggestions.length - i) * 9 * 3_600_000).toISOString();
    const [topic] = demoTopicsOf(suggestion.question);
    const topicId = topic === undefined ? null : ((await topicIdsOf(db, [topic]))?.[0] ?? null);
    await insertSuggestion(db, { ...suggestion, topicId }, submitted);
  }
  // Four who confirmed and one still waiting for the link; daily, weekly or both.
  for (const [n, frequency] of [
    [0, 'daily'],
    [4, 'weekly'],
    [8, 'both'],
    [12, 'daily'],
    [16, 'weekly'],
  ] as const) {
    const email = `teacher${n}@example.org`;
    const consent = consentText('Teacher Hot Take');
    await insertPendingSubscriber(db, { email, sourcePollId: null, consentText: consent, frequency, now });
    if (n < 16)
      await db.updateTable('subscribers').set({ confirmed_at: now.toISOString() }).where('email', '=', email).execute();
  }

  return {
    polls: earlierRuns.length + latestPastRuns.length - 1 + pastPolls.length + 1 + scheduledPolls.length,
    votes,
  };
}
