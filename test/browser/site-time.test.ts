/**
 * Dates the visitor sees come from the site's time zone (New York), not the browser's. On New
 * Year's Eve at 19:00 in New York it is already 2027 in Kiritimati (UTC+14) and in Adelaide,
 * where the tests run: a date read from the browser's clock shows the wrong day and year.
 */
import { describe, expect, it } from 'vitest';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { newYorkTime } from '../../src/server/testing/test-clock.js';
import { TodayPage } from './pages.js';
import { browserTest, newVisitor, PHONE } from './support.js';

const t = browserTest({ now: newYorkTime('2026-12-31', '19:00') });

describe('a browser far ahead of the site', () => {
  it('dates the footer and the chart image by New York’s calendar', async () => {
    await seedPoll(t.site.db, {
      question: 'Resolutions: worth making?',
      options: ['Yes', 'No'],
      liveDate: '2026-12-31',
      votes: [1, 1],
    });
    const { page } = await newVisitor(t.browser, t.site, PHONE, { timezoneId: 'Pacific/Kiritimati' });
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.question.waitFor();
    expect(await page.evaluate(() => new Date().getFullYear())).toBe(2027); // the browser's own calendar

    expect(await page.locator('.site-footer__note').textContent()).toBe(
      '© 2026 Teacher Hot Take. Votes are anonymous.',
    );

    await today.option('Yes').click();
    await today.subscribeModal.waitFor();
    await page.getByRole('button', { name: 'No Thanks' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Share Chart Image' }).click();
    expect((await download).suggestedFilename()).toMatch(/^hot-take-poll-1-20261231-19\d{4}\.png$/);
  });
});
