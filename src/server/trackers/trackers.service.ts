/**
 * Trackers (issue 38, item 2): every named series with at least two runs anyone may see, and
 * one series in full. Reading one costs O(runs × options): each run's raw result is its
 * options' running tallies, and its adjusted line the one kept in poll_weighting when it
 * closed (weighting/weighted.service.ts, which computes it once from the profile tallies if no
 * one has read it yet). No vote is counted here, however many there are.
 */
import type { Tracker, TrackerRun, TrackerSummary } from '../../shared/trackers.js';
import { changesBetween } from '../../shared/trackers.js';
import { votingDayAt } from '../../shared/time.js';
import type { Weighted } from '../../shared/weighting.js';
import type { ServiceDeps } from '../service-deps.js';
import { resultsOf, totalVotes, type PollRecord } from '../polls/poll.js';
import { findNamedSeriesRuns } from '../polls/polls.repository.js';
import { findSeriesBySlug, seriesNamed, type SeriesRow } from '../polls/series.repository.js';
import type { WeightingService } from '../weighting/weighted.service.js';

const answerKey = (label: string) => label.trim().toLowerCase();

/** Where each of the tracker's options (the newest run's) sits in `poll`'s own options; -1 when it has none. */
function indexesIn(poll: PollRecord, options: readonly string[]): number[] {
  const keys = poll.options.map((option) => answerKey(option.label));
  return options.map((option) => keys.indexOf(answerKey(option)));
}

const pick = (values: readonly number[], at: readonly number[]) => at.map((k) => (k < 0 ? 0 : (values[k] ?? 0)));

function runOf(poll: PollRecord, options: readonly string[], weighted: Weighted | null): TrackerRun {
  const at = indexesIn(poll, options);
  const percentages = pick(
    resultsOf(poll).map((r) => r.percentage),
    at,
  );
  const line = weighted && !('withheld' in weighted) ? weighted : null;
  return {
    pollNumber: poll.pollNumber,
    liveDate: poll.liveDate,
    totalVotes: totalVotes(poll),
    percentages,
    adjusted: line
      ? {
          percentages: pick(line.percentages, at),
          ...(line.interval ? { low: pick(line.interval.low, at), high: pick(line.interval.high, at) } : {}),
        }
      : null,
  };
}

function summaryOf(series: SeriesRow, runs: readonly PollRecord[]): TrackerSummary {
  const newest = runs.at(-1) as PollRecord;
  const options = newest.options.map((option) => option.label);
  return {
    slug: series.slug,
    name: series.name,
    question: newest.question,
    options,
    runs: runs.map((poll) => {
      const { pollNumber, liveDate, totalVotes, percentages } = runOf(poll, options, null);
      return { pollNumber, liveDate, totalVotes, percentages };
    }),
  };
}

export function createTrackersService(
  { db, clock, site }: Pick<ServiceDeps, 'db' | 'clock' | 'site'>,
  weighting: WeightingService,
) {
  /** Runs anyone may see: past ones, and today's once voting has closed (no peeking before). */
  function visible(runs: readonly PollRecord[]): PollRecord[] {
    const todayClosed = !votingDayAt(clock.now(), site).votingOpen;
    return runs.filter((run) => run.status === 'past' || todayClosed);
  }

  return {
    /** GET /api/trackers: every series asked at least twice, the one with the newest run first. */
    async list(): Promise<TrackerSummary[]> {
      const bySeries = new Map<number, PollRecord[]>();
      for (const run of visible(await findNamedSeriesRuns(db))) {
        const runs = bySeries.get(run.seriesId ?? 0) ?? [];
        runs.push(run);
        bySeries.set(run.seriesId ?? 0, runs);
      }
      const shown = [...bySeries].filter(([, runs]) => runs.length >= 2);
      const named = await seriesNamed(
        db,
        shown.map(([id]) => id),
      );
      const newest = (runs: readonly PollRecord[]) => runs.at(-1) as PollRecord;
      return shown
        .sort(([, a], [, b]) => {
          const x = newest(a);
          const y = newest(b);
          return x.liveDate === y.liveDate ? y.pollNumber - x.pollNumber : x.liveDate < y.liveDate ? 1 : -1;
        })
        .flatMap(([id, runs]) => {
          const series = named.get(id);
          return series ? [summaryOf(series, runs)] : [];
        });
    },

    /** GET /api/trackers/:slug: undefined for no series, or one asked fewer than twice yet. */
    async tracker(slug: string): Promise<Tracker | undefined> {
      const series = await findSeriesBySlug(db, slug);
      if (!series) return undefined;
      const polls = visible(await findNamedSeriesRuns(db, series.id));
      if (polls.length < 2) return undefined;
      const summary = summaryOf(series, polls);
      const lines = await Promise.all(polls.map((poll) => weighting.ofPoll(poll)));
      const runs = polls.map((poll, k) => runOf(poll, summary.options, lines[k] ?? null));
      const [before, after] = runs.slice(-2) as [TrackerRun, TrackerRun];
      return { ...summary, runs, changes: changesBetween(summary.options, before, after) };
    },
  };
}

export type TrackersService = ReturnType<typeof createTrackersService>;
