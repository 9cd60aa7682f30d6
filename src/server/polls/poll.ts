/**
 * A poll, as the server knows it: the one type every part of the server reads polls as, and
 * every mapping of it: from the database row, and to each shape the API sends
 * (src/shared/api.ts), the open data and what embeds and print sheets show. A poll's address is
 * built by src/shared/poll-links.ts. Visitors' view of today's poll, which depends on who asks
 * and when, is in active-poll-visibility.ts.
 */
import type { Selectable } from 'kysely';
import type {
  AdminPoll,
  Breakdown,
  OpenPoll,
  PastPoll,
  Poll,
  PollResults,
  SeriesRun,
  VotesSummary,
} from '../../shared/api.js';
import { pollUrlOf } from '../../shared/poll-links.js';
import type { Weighted } from '../../shared/weighting.js';
import { resultItems, type ResultItem } from '../../shared/results.js';
import { instantAt, type LocalDate } from '../../shared/time.js';
import { closeTimeLabel, formatLocalDate } from '../../shared/time-labels.js';
import type { Site } from '../config.js';
import { toIsoString, type PollStatus, type PollsTable } from '../db/tables.js';

export interface PollOption {
  label: string;
  /** Votes so far (kept as a running tally with the option). */
  votes: number;
}

/** A poll with its options and their tallies. */
export interface PollRecord {
  id: number;
  pollNumber: number;
  question: string;
  description: string | null;
  liveDate: LocalDate;
  status: PollStatus;
  wentLiveAt: string | null;
  createdAt: string;
  options: PollOption[];
  /** The runs of a question asked again share this (the id of its first run); null for a poll asked once. */
  seriesId: number | null;
  /** The earlier run staff linked this poll to. */
  askedBeforeId: number | null;
  /** Votes held or discounted (integrity/): received, but in no tally. */
  setAsideVotes: number;
}

/** A poll to store: what staff write, before it has a number or votes. */
export interface NewPoll extends Pick<PollRecord, 'question' | 'description' | 'liveDate' | 'status'> {
  options: string[];
  /** When it went live; defaults to `now` for a poll that is not scheduled. */
  wentLiveAt?: string;
}

/** An edit of a poll's text and date. */
export interface PollChanges extends Pick<PollRecord, 'question' | 'description' | 'liveDate'> {
  /** New options; only for a poll without votes. */
  options?: string[];
}

/** The option a voter chose on a poll, and when. */
export interface VoterChoice {
  optionIndex: number;
  /** When the vote was cast, in milliseconds since the epoch. */
  votedAt: number;
  /** Recorded but held for a check (integrity/): in no figure yet, so the voter is told so. */
  held?: boolean;
}

/** A polls row as read (selectAll): pollFromRow takes what a PollRecord shows, its options come from poll_options. */
export type PollRow = Selectable<PollsTable>;

export function pollFromRow(row: PollRow, options: PollOption[]): PollRecord {
  return {
    id: row.id,
    pollNumber: row.poll_number,
    question: row.question,
    description: row.description,
    liveDate: row.live_date,
    status: row.status,
    wentLiveAt: row.went_live_at === null ? null : toIsoString(row.went_live_at),
    createdAt: toIsoString(row.created_at),
    options,
    seriesId: row.series_id,
    askedBeforeId: row.asked_before_id,
    setAsideVotes: row.set_aside_votes,
  };
}

export const optionLabels = (poll: PollRecord): string[] => poll.options.map((option) => option.label);

export const totalVotes = (poll: PollRecord): number => poll.options.reduce((sum, option) => sum + option.votes, 0);

/** Votes and whole percentages per option. */
export const resultsOf = (poll: PollRecord): ResultItem[] =>
  resultItems(
    optionLabels(poll),
    poll.options.map((option) => option.votes),
  );

/** What every shape of a poll the API sends starts with. */
function describePoll(
  poll: PollRecord,
): Pick<Poll, 'id' | 'pollNumber' | 'question' | 'description' | 'options' | 'liveDate'> {
  return {
    id: poll.id,
    pollNumber: poll.pollNumber,
    question: poll.question,
    description: poll.description,
    options: optionLabels(poll),
    liveDate: poll.liveDate,
  };
}

/** What every visitor may know of a poll: no tallies. */
export function toPoll(poll: PollRecord): Poll {
  return { ...describePoll(poll), createdAt: poll.createdAt, isActive: poll.status === 'active' };
}

/** A past poll in the archive: with its total, not its results. */
export const toPastPoll = (poll: PollRecord): PastPoll => ({
  ...toPoll(poll),
  totalVotes: totalVotes(poll),
  setAsideVotes: poll.setAsideVotes,
});

/** A poll's final results: the poll page of a past poll, its preview, the next day's e-mail. */
/** A poll's final results without its weighted line (the daily e-mail's). */
export function toRawResults(poll: PollRecord, series: SeriesRun[] = []): Omit<PollResults, 'weighted'> {
  return {
    ...describePoll(poll),
    results: resultsOf(poll),
    totalVotes: totalVotes(poll),
    setAsideVotes: poll.setAsideVotes,
    series,
  };
}

/** A closed poll's final results, with its weighted line (weighting/weighted.service.ts). */
export function toPollResults(poll: PollRecord, series: SeriesRun[], weighted: Weighted): PollResults {
  return { ...toRawResults(poll, series), weighted };
}

/** One run of a question asked again, as the other runs' pages show it. */
export function toSeriesRun(poll: PollRecord): SeriesRun {
  return {
    pollNumber: poll.pollNumber,
    liveDate: poll.liveDate,
    totalVotes: totalVotes(poll),
    results: resultsOf(poll),
  };
}

/** The key two option labels share when they are the same answer: case and surrounding spaces aside. */
const answerKey = (label: string) => label.trim().toLowerCase();

/** Whether two polls ask with the same answers (in any order), so one may be a run of the other. */
export function sameAnswers(a: readonly string[], b: readonly string[]): boolean {
  const keys = new Set(a.map(answerKey));
  return a.length === b.length && keys.size === a.length && b.every((label) => keys.has(answerKey(label)));
}

/** A poll as staff see it. A scheduled poll whose day has passed without it going live is "missed": staff decide. */
export function toAdminPoll(poll: PollRecord, today: LocalDate, askedBefore: number | null = null): AdminPoll {
  return {
    ...toPoll(poll),
    status: poll.status === 'scheduled' && poll.liveDate < today ? 'missed' : poll.status,
    totalVotes: totalVotes(poll),
    setAsideVotes: poll.setAsideVotes,
    askedBefore,
  };
}

/** Votes and e-mails per option, for the voter section; `withEmail` counts by option index. */
export function toVotesSummary(poll: PollRecord, withEmail: ReadonlyMap<number, number>): VotesSummary {
  const options = poll.options.map((option, index) => ({
    option: option.label,
    votes: option.votes,
    withEmail: withEmail.get(index) ?? 0,
  }));
  return {
    totalVotes: totalVotes(poll),
    withEmail: options.reduce((sum, option) => sum + option.withEmail, 0),
    options,
  };
}

/** Where the site is and when its voting closes: what the open data and the embeds state of a poll. */
export type PollSite = Pick<Site, 'publicUrl' | 'timeZone' | 'votingClosesAt'>;

/** A past poll as open data (JSON, CSV, feed), with its breakdowns (breakdowns/breakdown.ts). */
export function toOpenPoll(
  poll: PollRecord,
  site: PollSite,
  breakdowns: Breakdown['dimensions'],
  weighted: Weighted,
): OpenPoll {
  return {
    pollNumber: poll.pollNumber,
    date: poll.liveDate,
    question: poll.question,
    description: poll.description,
    url: pollUrlOf(site.publicUrl, poll.pollNumber),
    closedAt: instantAt(poll.liveDate, site.votingClosesAt, site.timeZone).toISOString(),
    options: optionLabels(poll),
    totalVotes: totalVotes(poll),
    setAsideVotes: poll.setAsideVotes,
    results: resultsOf(poll),
    breakdowns,
    weighted,
  };
}

/** What an embed and the print sheet show of any poll. */
type PollView = Pick<PollResults, 'pollNumber' | 'question' | 'description'> & {
  /** "November 21, 2026" */
  date: string;
  /** The poll's page on the site. */
  pollUrl: string;
};

/**
 * An embed or a print sheet: today's question with a link per option to vote on the site (never
 * its results while voting is open: no peeking), or a poll's results once it has closed.
 */
export type EmbedView =
  | (PollView &
      Pick<PollResults, 'options'> & {
        kind: 'vote';
        /** Where each option's link goes: the site, with that option picked. */
        voteUrls: string[];
        /** "8:00 PM Eastern Time" */
        closesAt: string;
      })
  | (PollView &
      Pick<PollResults, 'results' | 'totalVotes' | 'setAsideVotes' | 'weighted'> & {
        kind: 'results';
        /** False for today's poll after the close (it is still today's). */
        past: boolean;
      });

/**
 * `poll` in an embed or on a print sheet; `votingOpen`: voting on today's poll is open now;
 * `weightedOf` gives a closed poll's weighted line (asked only once voting has closed).
 */
export async function toEmbedView(
  poll: PollRecord,
  site: PollSite,
  votingOpen: boolean,
  weightedOf: (poll: PollRecord) => Promise<Weighted>,
): Promise<EmbedView> {
  const base = {
    pollNumber: poll.pollNumber,
    question: poll.question,
    description: poll.description,
    date: formatLocalDate(poll.liveDate),
    pollUrl: pollUrlOf(site.publicUrl, poll.pollNumber),
  };
  if (poll.status === 'active' && votingOpen) {
    return {
      ...base,
      kind: 'vote',
      options: optionLabels(poll),
      // The poll's number travels with the pick, so a stale embed never preselects on another poll.
      voteUrls: poll.options.map((_, index) => `${site.publicUrl}/?vote=${index}&poll=${poll.pollNumber}`),
      closesAt: closeTimeLabel(site),
    };
  }
  return {
    ...base,
    kind: 'results',
    results: resultsOf(poll),
    totalVotes: totalVotes(poll),
    setAsideVotes: poll.setAsideVotes,
    weighted: await weightedOf(poll),
    past: poll.status === 'past',
  };
}
