/**
 * A tracker in the open data (issue 38, item 2): /data/trackers/<slug>.json and .csv, CC BY 4.0
 * like the rest. Totals only: each run's votes, raw percentages and, where shown, the adjusted
 * line with its 95% credibility interval. No group, vote or voter.
 */
import { licenseNotice, attributionOf, OPEN_DATA_LICENSE } from '../../shared/open-data.js';
import { methodsUrl } from '../../shared/methods.js';
import { trackerPath, type Tracker } from '../../shared/trackers.js';
import { pollUrlOf } from '../../shared/poll-links.js';
import { csvCell } from '../http/csv.js';
import type { OpenDataSite } from './formats.js';

export function trackerJson(site: OpenDataSite, tracker: Tracker): string {
  return JSON.stringify({
    title: `${site.siteName}: ${tracker.name}`,
    source: `${site.publicUrl}${trackerPath(tracker.slug)}`,
    license: {
      name: OPEN_DATA_LICENSE.name,
      title: OPEN_DATA_LICENSE.title,
      url: OPEN_DATA_LICENSE.url,
      attribution: attributionOf(site.siteName, site.publicUrl),
      notice: licenseNotice(site.siteName, site.publicUrl),
    },
    notes:
      'A self-selected sample of teachers, asked the same question more than once. runs are oldest first; percentages ' +
      'follow options, as voted. adjusted is the result adjusted to the mix of US K-12 teachers, with low and high the ' +
      "ends of each option's 95% credibility interval, or null where the adjusted line is withheld. It is not a margin " +
      `of error (${methodsUrl(site.publicUrl)}).`,
    slug: tracker.slug,
    name: tracker.name,
    question: tracker.question,
    options: tracker.options,
    runs: tracker.runs.map((run) => ({ ...run, url: pollUrlOf(site.publicUrl, run.pollNumber) })),
  });
}

export const TRACKER_CSV_HEADER = [
  'poll_number',
  'date',
  'total_votes',
  'option_index',
  'option',
  'percentage',
  'adjusted_percentage',
  'adjusted_interval_low',
  'adjusted_interval_high',
] as const;

export function trackerCsv(tracker: Tracker): string {
  const rows = tracker.runs.flatMap((run) =>
    tracker.options.map((option, k) => [
      run.pollNumber,
      run.liveDate,
      run.totalVotes,
      k,
      option,
      run.percentages[k] ?? 0,
      run.adjusted?.percentages[k] ?? '',
      run.adjusted?.low?.[k] ?? '',
      run.adjusted?.high?.[k] ?? '',
    ]),
  );
  return (
    [TRACKER_CSV_HEADER, ...rows].map((row) => row.map((cell) => csvCell(String(cell))).join(',')).join('\r\n') + '\r\n'
  );
}
