/**
 * The CSV of a poll's voter e-mails (spec section 7): one row per vote that carries an e-mail,
 * dates and times in the site time zone. Cells a spreadsheet would run as formulas (starting
 * with =, +, -, @, a tab or a return) are neutralised with a leading apostrophe.
 */
import Papa from 'papaparse';
import type { AdminPoll, VoteRecord } from '../../../shared/api.js';
import { localDateAt } from '../../../shared/time.js';

export const CSV_COLUMNS = ['Poll Question', 'Selected Option', 'Voter Email', 'Vote Date', 'Vote Time'] as const;

function timeAt(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(
    instant,
  );
}

export function votesCsv(poll: Pick<AdminPoll, 'question' | 'options'>, votes: VoteRecord[], timeZone: string): string {
  const rows = votes.map((vote) => {
    const at = new Date(vote.createdAt);
    return [poll.question, poll.options[vote.optionIndex] ?? '', vote.voterEmail, localDateAt(at, timeZone), timeAt(at, timeZone)];
  });
  return Papa.unparse({ fields: [...CSV_COLUMNS], data: rows }, { escapeFormulae: true, newline: '\r\n' });
}

/** poll-votes-{id}-{date}.csv, dated today in the site time zone. */
export function csvFileName(pollId: number, now: Date, timeZone: string): string {
  return `poll-votes-${pollId}-${localDateAt(now, timeZone)}.csv`;
}

/** Saves the CSV; the byte-order mark makes Excel read it as UTF-8. */
export function downloadCsv(csv: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
