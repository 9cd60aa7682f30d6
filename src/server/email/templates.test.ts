import { describe, expect, it } from 'vitest';
import { dailyEmail, type FinalResults } from './templates.js';

const site = { siteName: 'Teacher Hot Take', publicUrl: 'https://hottake.example.org', postalAddress: null };
const today = { pollNumber: 2, question: 'Should recess be longer?', description: null };
const previous = (setAsideVotes: number): FinalResults => ({
  pollNumber: 1,
  liveDate: '2026-11-20',
  question: 'Should homework be banned?',
  results: [
    { option: 'Yes', votes: 3, percentage: 75 },
    { option: 'No', votes: 1, percentage: 25 },
  ],
  totalVotes: 4,
  setAsideVotes,
});
const mail = (setAsideVotes: number) =>
  dailyEmail(site, 'https://hottake.example.org/unsubscribe?token=t', '2026-11-21', today, previous(setAsideVotes));

describe("the day's e-mail, with the results of the poll before", () => {
  it('says how many of its votes were set aside after review, linking to what is checked', () => {
    const { html, text } = mail(1234);
    expect(html).toContain(
      '4 votes in total ·\n        <a href="https://hottake.example.org/faq#honest-results" style="color:#57534e">1,234 votes set aside after review</a> ·',
    );
    expect(text).toContain(
      '4 votes in total. Full results: https://hottake.example.org/poll-1\n1,234 votes set aside after review. How we keep results honest: https://hottake.example.org/faq#honest-results\n',
    );
  });

  it('says nothing of it when none were', () => {
    const { html, text } = mail(0);
    expect(html).not.toMatch(/set aside|honest-results/);
    expect(text).not.toMatch(/set aside|honest-results/);
    expect(text).toContain('4 votes in total. Full results: https://hottake.example.org/poll-1\n');
  });
});
