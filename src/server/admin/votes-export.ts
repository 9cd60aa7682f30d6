/**
 * The CSV of a poll's votes (spec section 7): one row per vote, anonymous ones with an empty
 * Voter Email, dates and times in the site time zone. Written as the pages of votes arrive, so
 * a poll of a million votes streams through in bounded memory. Cells a spreadsheet would run as
 * formulas are neutralised with a leading apostrophe (OWASP's rule), whatever follows, line
 * breaks included.
 */
import type { AdminPoll, VoteRecord } from '../../shared/api.js';
import { localDateAt } from '../../shared/time.js';
import { csvCell } from '../http/csv.js';

export const CSV_COLUMNS = ['Poll Question', 'Selected Option', 'Voter Email', 'Vote Date', 'Vote Time'] as const;

/** Excel reads a CSV as UTF-8 only when it starts with a byte-order mark. */
const BYTE_ORDER_MARK = '\uFEFF';

const csvLine = (cells: readonly string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** poll-votes-{id}-{date}.csv, dated today in the site time zone. */
export function csvFileName(pollId: number, now: Date, timeZone: string): string {
  return `poll-votes-${pollId}-${localDateAt(now, timeZone)}.csv`;
}

/** The CSV, a page of votes at a time. */
export async function* votesCsv(
  poll: Pick<AdminPoll, 'question' | 'options'>,
  pages: AsyncIterable<VoteRecord[]>,
  timeZone: string,
): AsyncGenerator<string> {
  // One formatter for every row: "2026-11-21, 23:30:00" (en-CA writes dates as YYYY-MM-DD).
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const question = csvCell(poll.question);
  const options = poll.options.map(csvCell);
  yield BYTE_ORDER_MARK + csvLine(CSV_COLUMNS);
  for await (const page of pages) {
    let chunk = '';
    for (const vote of page) {
      const [date = '', time = ''] = format.format(new Date(vote.createdAt)).split(', ');
      chunk += `${question},${options[vote.optionIndex] ?? ''},${csvCell(vote.voterEmail ?? '')},${date},${time}\r\n`;
    }
    yield chunk;
  }
}
