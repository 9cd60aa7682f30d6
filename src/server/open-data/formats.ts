/**
 * The open data's three documents, as pure functions of the past polls: JSON for programs, CSV
 * for spreadsheets (one row per poll, group and option), and an Atom 1.0 feed for feed readers.
 * Each states the licence (CC BY 4.0) and who to credit.
 */
import type { OpenPoll } from '../../shared/api.js';
import { BREAKDOWN_ROUNDING_BASE, MIN_GROUP_SIZE } from '../../shared/profile.js';
import { honestResultsUrl } from '../../shared/honest-results.js';
import {
  attributionOf,
  licenseNotice,
  OPEN_DATA_LICENSE,
  OPEN_DATA_PATHS,
  WEIGHTING_DATA_PATH,
} from '../../shared/open-data.js';
import { methodsUrl } from '../../shared/methods.js';
import type { Weighted } from '../../shared/weighting.js';
import { setAsideNote, votesText } from '../../shared/results.js';
import { formatLocalDate } from '../../shared/time-labels.js';
import { csvCell } from '../http/csv.js';
import { isoWeekDays } from '../../shared/iso-week.js';
import { weightedLine } from '../../shared/weighted-line.js';
import { headlineOf } from '../digest/digest.service.js';
import { withAbsoluteLinks } from '../notes/note-markdown.js';
import { weekPath, weekTitle } from '../digest/week-words.js';

export interface OpenDataSite {
  siteName: string;
  publicUrl: string;
}

function license(site: OpenDataSite) {
  return {
    name: OPEN_DATA_LICENSE.name,
    title: OPEN_DATA_LICENSE.title,
    url: OPEN_DATA_LICENSE.url,
    attribution: attributionOf(site.siteName, site.publicUrl),
    notice: licenseNotice(site.siteName, site.publicUrl),
  };
}

/**
 * What a document covers: every past poll, or one topic's (issue 39: /data/topics/<slug>.json,
 * /topics/<slug>/feed.xml), with its title and addresses.
 */
export interface OpenDataScope {
  title: string;
  /** The document's own path. */
  selfPath: string;
  /** The page it is the data of. */
  pagePath: string;
  topic?: { slug: string; name: string };
}

const everyPoll = (site: OpenDataSite, selfPath: string): OpenDataScope => ({
  title: `${site.siteName}: every past poll`,
  selfPath,
  pagePath: '/',
});

/** GET /data/polls.json (and a topic's JSON, with its scope) */
export function openDataJson(
  site: OpenDataSite,
  polls: readonly OpenPoll[],
  scope: OpenDataScope = everyPoll(site, OPEN_DATA_PATHS.json),
): string {
  return JSON.stringify({
    title: scope.title,
    ...(scope.topic ? { topic: { ...scope.topic, url: `${site.publicUrl}${scope.pagePath}` } } : {}),
    source: site.publicUrl,
    license: license(site),
    minGroupSize: MIN_GROUP_SIZE,
    notes:
      'A self-selected sample of teachers: results are as voted. weighted is the result adjusted to the mix of US K-12 ' +
      `teachers (classroom teachers' votes raked to NCES margins, ${methodsUrl(site.publicUrl)}; targets and rules at ` +
      `${site.publicUrl}${WEIGHTING_DATA_PATH}), or { withheld } naming the rule that withheld it. A poll's own weighted line carries ` +
      "interval: each option's 95% credibility interval (low, high, in whole percentages) from a bootstrap that rakes " +
      'every resample again, and the design effect it implies; it is not a margin of error, and none is given. Percentages are whole numbers that add up to 100 ' +
      `(largest remainder). Breakdown groups with fewer than ${MIN_GROUP_SIZE} votes are withheld: their votes count ` +
      'in withheldVotes. Votes whose voter did not say count in notSaidVotes. Where those two add up to 1 to ' +
      `${MIN_GROUP_SIZE - 1} votes, the overall result less the groups listed would give them away, so the smallest ` +
      'group is withheld too: alsoWithheld names it, with its number of votes only. Every count of a breakdown ' +
      `(votes, totals, withheld, not said) is a multiple of ${BREAKDOWN_ROUNDING_BASE}, rounded at random once when ` +
      'voting closed, and percentages come from the rounded votes, so that no subtraction gives one vote away ' +
      `(${methodsUrl(site.publicUrl)}). Breakdowns stay as published at the close. setAsideVotes counts the votes ` +
      'set aside after review (held, or discounted by staff): they are in no total, result or breakdown. What is ' +
      `checked: ${honestResultsUrl(site.publicUrl)}. note is the staff's "What we learned" after the close, as ` +
      'HTML (a safe Markdown subset rendered by the site) and as plain text, with when it last changed; null without one.',
    polls: polls.map((poll) => ({ ...poll, note: poll.note ?? null })),
  });
}

export const CSV_HEADER = [
  'poll_number',
  'date',
  'question',
  'dimension',
  'group',
  'group_label',
  'group_total_votes',
  'option_index',
  'option',
  'votes',
  'percentage',
  // Added last, so that programs reading the columns by position read the others where they were.
  'set_aside_votes',
  // The weighted line (issue 26): the option's adjusted percentage, the votes in scope and the
  // effective sample; or, with no percentage, the rule that withheld it.
  'weighted_percentage',
  'weighted_votes_in_scope',
  'weighted_effective_sample',
  'weighted_withheld',
  // Its 95% credibility interval (issue 38), a poll's own line only: the option's ends in whole
  // percentages and the design effect the interval implies.
  'weighted_interval_low',
  'weighted_interval_high',
  'weighted_interval_design_effect',
  // The staff note, "What we learned" (issue 39), as plain text, and when it last changed: on
  // every row of its poll, as the question is; empty without one.
  'note',
  'note_updated_at',
] as const;

/** The weighted columns of a row about option `index` (null: a row about no option). */
function weightedCells(weighted: Weighted | undefined, index: number | null): (string | number)[] {
  if (!weighted) return ['', '', '', '', '', '', ''];
  if ('withheld' in weighted) return ['', weighted.votesInScope, '', weighted.withheld, '', '', ''];
  const of = (values: readonly (number | null)[] | undefined) => (index === null ? '' : (values?.[index] ?? ''));
  const { interval } = weighted;
  return [
    of(weighted.percentages),
    weighted.votesInScope,
    weighted.effectiveSample,
    '',
    of(interval?.low),
    of(interval?.high),
    of(interval?.designEffects),
  ];
}

/** Excel reads a CSV as UTF-8 only when it starts with a byte-order mark. */
const BYTE_ORDER_MARK = '\uFEFF';

/**
 * GET /data/polls.csv: one row per poll, group and option. The group "all" of the dimension
 * "all" is everyone; then each listed group of each dimension; then a row per dimension for
 * the withheld and the not-said votes, with no option, and one with no option for a group
 * withheld though large enough (its id, label and votes: see alsoWithheld in the JSON). Every
 * row of a poll carries its votes set aside after review and its staff note (plain text, a
 * cell like any other: quoted, and neutralised if a spreadsheet would run it), as every row
 * carries its question.
 * The first line is a comment (`#`) stating the licence.
 */
export function openDataCsv(site: OpenDataSite, polls: readonly OpenPoll[]): string {
  const lines = [`# ${licenseNotice(site.siteName, site.publicUrl).replaceAll(/[\r\n]/g, ' ')}`, CSV_HEADER.join(',')];
  for (const poll of polls) {
    const note = [poll.note?.text ?? '', poll.note?.updatedAt ?? ''];
    const row = (cells: (string | number)[], weighted: (string | number)[] = weightedCells(undefined, null)) =>
      lines.push([...cells, poll.setAsideVotes, ...weighted, ...note].map((cell) => csvCell(String(cell))).join(','));
    const start = [poll.pollNumber, poll.date, poll.question];
    poll.results.forEach((result, index) =>
      row(
        [...start, 'all', 'all', 'Everyone', poll.totalVotes, index, result.option, result.votes, result.percentage],
        weightedCells(poll.weighted, index),
      ),
    );
    for (const dimension of poll.breakdowns) {
      for (const group of dimension.groups) {
        group.results.forEach((result, index) =>
          row(
            [
              ...start,
              dimension.dimension,
              group.value,
              group.label,
              group.totalVotes,
              index,
              result.option,
              result.votes,
              result.percentage,
            ],
            weightedCells(group.weighted, index),
          ),
        );
      }
      row([
        ...start,
        dimension.dimension,
        'withheld',
        `Groups under ${MIN_GROUP_SIZE} votes`,
        dimension.withheldVotes,
        '',
        '',
        '',
        '',
      ]);
      row([...start, dimension.dimension, 'not-said', 'Not said', dimension.notSaidVotes, '', '', '', '']);
      const also = dimension.alsoWithheld;
      if (also) row([...start, dimension.dimension, also.value, also.label, also.totalVotes, '', '', '', '']);
    }
  }
  return `${BYTE_ORDER_MARK}${lines.join('\r\n')}\r\n`;
}

/** XML text: escaped, and without the control characters XML 1.0 cannot hold. */
function xml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 cannot hold
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c)
  );
}

/** An entry's content, as HTML (escaped once more by `xml` into the feed). */
function entryHtml(poll: OpenPoll, publicUrl: string): string {
  const html = xml; // the same escapes suit HTML
  const items = poll.results
    .map((r) => `<li>${html(r.option)}: ${r.percentage}% (${votesText(r.votes)})</li>`)
    .join('');
  const description = poll.description === null ? '' : `<p>${html(poll.description)}</p>`;
  const note = setAsideNote(poll.setAsideVotes);
  const setAside = note === null ? '' : ` <a href="${html(honestResultsUrl(publicUrl))}">${html(note)}</a>.`;
  // The note's HTML is the site's renderer's (notes/note-markdown.ts), safe as it is.
  const staffNote = poll.note ? `<h3>What we learned</h3>${withAbsoluteLinks(poll.note.html, publicUrl)}` : '';
  return `${description}<ul>${items}</ul><p>Total: ${votesText(poll.totalVotes)}.${setAside} <a href="${html(poll.url)}">See all votes</a></p>${staffNote}`;
}

/** A weekly digest's entry: the week's past polls, each with its headline, adjusted line, note and link. */
function weekEntry(site: OpenDataSite, week: string, polls: readonly OpenPoll[]): string {
  const days = isoWeekDays(week);
  const inWeek = days ? polls.filter((poll) => poll.date >= days.monday && poll.date <= days.sunday) : [];
  if (!days || inWeek.length === 0) return '';
  const html = xml;
  const url = `${site.publicUrl}${weekPath(week)}`;
  const items = inWeek.map((poll) => {
    const line = weightedLine(poll.weighted, poll.options);
    const adjusted = line?.adjusted ? `<p>${html(line.text)}</p>` : '';
    const note = poll.note
      ? `<p><strong>What we learned:</strong></p>${withAbsoluteLinks(poll.note.html, site.publicUrl)}`
      : '';
    return `<h3><a href="${html(poll.url)}">${html(poll.question)}</a></h3><p>${html(poll.totalVotes === 0 ? 'No votes' : headlineOf(poll.results))}</p>${adjusted}${note}`;
  });
  const updated =
    inWeek
      .map((poll) => poll.note?.updatedAt ?? poll.closedAt)
      .sort()
      .at(-1) ?? '';
  return `  <entry>
    <id>${xml(url)}</id>
    <title>${xml(weekTitle(days))}</title>
    <link rel="alternate" type="text/html" href="${xml(url)}"/>
    <published>${inWeek.at(-1)?.closedAt ?? updated}</published>
    <updated>${updated}</updated>
    <summary>${xml(`${inWeek.length === 1 ? 'One poll' : `${inWeek.length} polls`} this week: ${inWeek.map((poll) => poll.question).join(' · ')}`)}</summary>
    <content type="html">${xml(items.join(''))}</content>
  </entry>
`;
}

/** "(12 votes)", or "(12 votes; 3 votes set aside after review)". */
function totalsInBrackets(poll: OpenPoll): string {
  const note = setAsideNote(poll.setAsideVotes);
  return `(${votesText(poll.totalVotes)}${note === null ? '' : `; ${note}`})`;
}

/** GET /feed.xml: an Atom 1.0 feed of every past poll, newest first, then the weekly digests that went out. */
export function atomFeed(
  site: OpenDataSite,
  polls: readonly OpenPoll[],
  scope: OpenDataScope = { ...everyPoll(site, OPEN_DATA_PATHS.feed), title: `${site.siteName}: past polls` },
  weeks: readonly string[] = [],
): string {
  const newestFirst = [...polls].reverse();
  const updated = newestFirst[0]?.closedAt ?? '2000-01-01T00:00:00.000Z';
  const entries = newestFirst.map(
    (poll) => `  <entry>
    <id>${xml(poll.url)}</id>
    <title>${xml(`Poll #${poll.pollNumber}: ${poll.question}`)}</title>
    <link rel="alternate" type="text/html" href="${xml(poll.url)}"/>
    <published>${poll.closedAt}</published>
    <updated>${poll.closedAt}</updated>
    <summary>${xml(`${formatLocalDate(poll.date)}. ${poll.results.map((r) => `${r.option}: ${r.percentage}%`).join(', ')} ${totalsInBrackets(poll)}.`)}</summary>
    <content type="html">${xml(entryHtml(poll, site.publicUrl))}</content>
  </entry>
`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xml(`${site.publicUrl}${scope.pagePath}`)}</id>
  <title>${xml(scope.title)}</title>
  <subtitle>One education poll a day. Teachers vote anonymously and see the results.</subtitle>
  <link rel="self" type="application/atom+xml" href="${xml(site.publicUrl + scope.selfPath)}"/>
  <link rel="alternate" type="text/html" href="${xml(`${site.publicUrl}${scope.pagePath}`)}"/>
  <link rel="license" href="${xml(OPEN_DATA_LICENSE.url)}"/>
  <updated>${updated}</updated>
  <author><name>${xml(site.siteName)}</name><uri>${xml(`${site.publicUrl}/`)}</uri></author>
  <rights>${xml(licenseNotice(site.siteName, site.publicUrl))}</rights>
${entries.join('')}${weeks.map((week) => weekEntry(site, week, polls)).join('')}</feed>
`;
}
