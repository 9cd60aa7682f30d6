import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvFileName, votesCsv } from './votes-csv.js';

describe('votesCsv', () => {
  const poll = { question: 'Should homework be banned?', options: ['Yes, "all" of it', 'No, keep it'] };

  it('writes the spec’s columns, quoting what needs it, with New York dates and times', () => {
    const csv = votesCsv(
      poll,
      [
        { voterEmail: 'pat@example.org', optionIndex: 0, createdAt: '2026-11-22T04:30:00.000Z' }, // 23:30 on Nov 21 in New York
        { voterEmail: 'sam@example.org', optionIndex: 1, createdAt: '2026-07-04T16:05:09.000Z' }, // 12:05:09 EDT
      ],
      'America/New_York',
    );
    expect(csv.split('\r\n')).toEqual([
      'Poll Question,Selected Option,Voter Email,Vote Date,Vote Time',
      'Should homework be banned?,"Yes, ""all"" of it",pat@example.org,2026-11-21,23:30:00',
      'Should homework be banned?,"No, keep it",sam@example.org,2026-07-04,12:05:09',
    ]);
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    const csv = votesCsv(
      { question: '=HYPERLINK("http://evil.example","click")', options: ['+1', '-2', '@SUM(A1)'] },
      [{ voterEmail: '=cmd@example.org', optionIndex: 2, createdAt: '2026-11-21T15:00:00.000Z' }],
      'America/New_York',
    );
    const [, row] = Papa.parse<string[]>(csv.trim()).data;
    expect(row?.slice(0, 3)).toEqual([`'=HYPERLINK("http://evil.example","click")`, "'@SUM(A1)", "'=cmd@example.org"]);
    for (const cell of row ?? []) expect(cell).not.toMatch(/^[=+\-@]/);
  });

  it('names the file after the poll and today’s site date', () => {
    expect(csvFileName(7, new Date('2026-11-22T03:00:00Z'), 'America/New_York')).toBe('poll-votes-7-2026-11-21.csv');
  });
});
