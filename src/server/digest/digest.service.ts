/**
 * The weekly digest (issue 39, item 4): the polls of an ISO week that have closed, each with
 * its headline result, its adjusted line where one is shown, its staff note and its link. The
 * same digest is the e-mail (queued every Friday at the time the owner sets, in the site's
 * time zone, and composed as it is sent), the page /week/2026-W48 and the feed's entry.
 */
import type { PollNote } from '../../shared/api.js';
import { isoWeekDays, isoWeekOf, type IsoWeek } from '../../shared/iso-week.js';
import { pollUrlOf } from '../../shared/poll-links.js';
import { formatCount } from '../../shared/results.js';
import { instantAt, localDateAt, parseTimeOfDay, votingDayAt, type LocalDate } from '../../shared/time.js';
import { weightedLine } from '../../shared/weighted-line.js';
import { toPollNote } from '../notes/note-markdown.js';
import { findNotes } from '../notes/notes.repository.js';
import { resultsOf, totalVotes } from '../polls/poll.js';
import { findPollById, markPastPollsChanged } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import type { AuditWrite } from '../staff/audit.js';
import { createWeightingService } from '../weighting/weighted.service.js';
import { digestSendAt, pollIdsLiveBetween, queueWeek, setDigestSendAt } from './digest.repository.js';

/** When the digest leaves on Fridays until the owner picks a time: after the day's close (20:00 by default). */
export const DEFAULT_DIGEST_SEND_AT = '20:30';

/** A composed digest is reused this long: one week's e-mails to thousands read the polls once. */
const DIGEST_MEMORY_MS = 60_000;

export interface DigestPoll {
  pollNumber: number;
  liveDate: LocalDate;
  question: string;
  url: string;
  /** "Yes: 58% of 412 votes", or each of the options tied at the top. */
  headline: string;
  /** The adjusted line's sentence, where the site shows one. */
  adjusted: string | null;
  note: PollNote | null;
}

export interface WeekDigest {
  week: IsoWeek;
  monday: LocalDate;
  sunday: LocalDate;
  polls: DigestPoll[];
}

/** The options with the most votes, in words. */
export function headlineOf(results: readonly { option: string; votes: number; percentage: number }[]): string {
  const total = results.reduce((sum, r) => sum + r.votes, 0);
  if (total === 0) return 'No votes';
  const most = Math.max(...results.map((r) => r.votes));
  const top = results.filter((r) => r.votes === most);
  const of = `of ${formatCount(total)} ${total === 1 ? 'vote' : 'votes'}`;
  if (top.length === 1) return `${top[0]?.option}: ${top[0]?.percentage}% ${of}`;
  return `Tied: ${top.map((r) => `${r.option} ${r.percentage}%`).join(', ')} ${of}`;
}

export function createDigestService({ db, clock, site }: Pick<ServiceDeps, 'db' | 'clock' | 'site'>) {
  const weighting = createWeightingService({ db, clock });
  const kept = new Map<IsoWeek, { at: number; digest: Promise<WeekDigest | undefined> }>();
  /** The last week this instance saw queued: no more writes for it on every tick. */
  let queuedWeek: IsoWeek | null = null;

  async function compose(week: IsoWeek): Promise<WeekDigest | undefined> {
    const days = isoWeekDays(week);
    if (!days) return undefined;
    const day = votingDayAt(clock.now(), site);
    const ids = await pollIdsLiveBetween(db, days.monday, days.sunday);
    const notes = await findNotes(db, ids);
    const polls: DigestPoll[] = [];
    for (const id of ids) {
      const poll = await findPollById(db, id);
      // Only closed polls: today's once voting has closed.
      if (!poll || (poll.status === 'active' && poll.liveDate >= day.date && day.votingOpen)) continue;
      const results = resultsOf(poll);
      const line = weightedLine(
        await weighting.ofPoll(poll),
        poll.options.map((option) => option.label),
      );
      const note = notes.get(id);
      polls.push({
        pollNumber: poll.pollNumber,
        liveDate: poll.liveDate,
        question: poll.question,
        url: pollUrlOf(site.publicUrl, poll.pollNumber),
        headline: totalVotes(poll) === 0 ? 'No votes' : headlineOf(results),
        adjusted: line?.adjusted ? line.text : null,
        note: note ? toPollNote(note) : null,
      });
    }
    return polls.length === 0 ? undefined : { week, monday: days.monday, sunday: days.sunday, polls };
  }

  async function sendAt(): Promise<string> {
    return (await digestSendAt(db)) ?? DEFAULT_DIGEST_SEND_AT;
  }

  return {
    /** The week's digest; undefined for a week that does not exist or has no closed poll yet. */
    week(week: IsoWeek): Promise<WeekDigest | undefined> {
      const now = clock.now().getTime();
      const hit = kept.get(week);
      if (hit && now - hit.at < DIGEST_MEMORY_MS && now >= hit.at) return hit.digest;
      const digest = compose(week);
      kept.set(week, { at: now, digest });
      if (kept.size > 100) kept.delete(kept.keys().next().value as IsoWeek);
      digest.catch(() => kept.delete(week));
      return digest;
    },

    sendAt,

    /** A new Friday time, with its audit row, in one transaction. */
    async setSendAt(value: string, audit: AuditWrite): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await setDigestSendAt(trx, value);
        await audit(trx);
      });
    },

    /**
     * Queues this week's digest once its Friday time has passed (on Friday, or later in the
     * week when no instance was running then), on whichever instance gets there first. Returns
     * the week queued now, or null.
     */
    async queueDue(): Promise<IsoWeek | null> {
      const now = clock.now();
      const week = isoWeekOf(localDateAt(now, site.timeZone));
      const days = isoWeekDays(week);
      const time = parseTimeOfDay(await sendAt());
      if (week === queuedWeek || !days || !time || now < instantAt(days.friday, time, site.timeZone)) return null;
      const queued = await db.transaction().execute(async (trx) => {
        const fresh = await queueWeek(trx, week, now);
        // The feed gains the week's entry: open data is built again.
        if (fresh) await markPastPollsChanged(trx);
        return fresh;
      });
      queuedWeek = week;
      return queued ? week : null;
    },
  };
}

export type DigestService = ReturnType<typeof createDigestService>;
