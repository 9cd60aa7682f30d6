/**
 * The weighted line under a closed poll's result, and /methods where it leads: drawn by the
 * server (scripts off), kept by the app (scripts on), axe-clean in both colour schemes, never
 * under today's results while voting is open.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { newYorkTime } from '../../src/server/testing/test-clock.js';
import { seedOneCellOfTeachers, seedSkewedTeachers } from '../../src/server/testing/weighting-fixtures.js';
import { WITHHELD_REASON_TEXT } from '../../src/shared/weighting.js';
import { TodayPage } from './pages.js';
import { browserTest, expectAccessible, newVisitor, saveScreenshots, scriptlessVisitor, setTime } from './support.js';

const t = browserTest();

/** With each option's credibility interval (issue 38). */
const ADJUSTED =
  /^Adjusted to the mix of US K-12 teachers: 51% Yes \(\d+–\d+%\), 49% No \(\d+–\d+%\)\. 200 teachers; effective sample \d+; ranges are 95% credibility intervals\. How we adjust$/;

async function seedSite() {
  const adjusted = await seedPoll(t.site.db, {
    question: 'Should phones be banned in class?',
    options: ['Yes', 'No'],
    status: 'past',
    liveDate: '2026-11-19',
  });
  await seedSkewedTeachers(t.site.db, adjusted);
  const few = await seedPoll(t.site.db, {
    question: 'Should recess be longer?',
    options: ['Yes', 'No'],
    status: 'past',
    liveDate: '2026-11-20',
    votes: [3, 1],
  });
  await seedOneCellOfTeachers(t.site.db, few, 12);
  const today = await seedPoll(t.site.db, { question: 'Should homework be banned?', options: ['Yes', 'No'] });
  await seedSkewedTeachers(t.site.db, today);
  return { adjusted, few, today };
}

const line = (page: Page, scope: string) => page.locator(`${scope} > .weighted-line`);

/** /methods as a reader finds it: the figures from the targets file, the rules, the limits. */
async function expectMethodsPage(page: Page) {
  await page.getByRole('heading', { name: 'How we adjust results', level: 1 }).waitFor();
  await page.locator('.methods__targets').first().waitFor();
  const text = (await page.locator('main').textContent()) ?? '';
  for (const words of [
    'Self-selected.',
    'One vote per browser',
    'Primary schools47.6%',
    'South39.2%',
    'school year 2017-18',
    'school year 2020-21',
    '5 times the mean weight',
    'effective sample',
    'misleading',
    // The credibility interval: what it covers, what it cannot, and that it is no margin of error.
    '58% Yes (52–64%), 42% No (36–48%)',
    'How sure the adjusted line is',
    'drawing the poll’s votes again at random, 500 times',
    'from which teachers happened to vote, and from weighting them',
    'What it cannot cover: who chose not to vote.',
    'it is not a margin of error',
    'It cannot correct for why people vote.',
    'Profiles are self-reported.',
    'at least 10 votes',
    WITHHELD_REASON_TEXT['small-category'],
  ]) {
    expect(text).toContain(words);
  }
  expect(text).not.toContain('±');
  expect(await page.getByRole('link', { name: 'How we keep results honest' }).getAttribute('href')).toBe(
    '/faq#honest-results',
  );
  expect(
    await page
      .getByRole('link', { name: /Percentage distribution of all school teachers/ })
      .first()
      .getAttribute('href'),
  ).toMatch(/^https:\/\/nces\.ed\.gov\//);
}

describe('the weighted line and /methods', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`shows under a past poll’s total, leads to /methods, and both pass axe (${scheme})`, async () => {
      const { adjusted, few } = await seedSite();
      const { page, errors } = await newVisitor(t.browser, t.site);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${t.site.url}/poll-${adjusted.pollNumber}`);
      expect(await page.locator('.poll-page__total').textContent()).toBe('Total: 200 votes');
      expect(await line(page, '.poll-page').textContent()).toMatch(ADJUSTED);
      await expectAccessible(page);
      await saveScreenshots(page, `weighted-${scheme}-past-poll`);

      // A withheld line is one quiet sentence.
      await page.goto(`${t.site.url}/poll-${few.pollNumber}`);
      expect(await line(page, '.poll-page').textContent()).toBe(
        `${WITHHELD_REASON_TEXT['too-few-votes']} How we adjust`,
      );
      await expectAccessible(page);

      await page.goBack();
      await line(page, '.poll-page').getByRole('link', { name: 'How we adjust' }).click();
      expect(new URL(page.url()).pathname).toBe('/methods');
      await expectMethodsPage(page);
      await expectAccessible(page);
      await saveScreenshots(page, `weighted-${scheme}-methods`);
      // The footer leads there too.
      expect(await page.locator('.site-footer').getByRole('link', { name: 'Methods' }).count()).toBe(1);
      expect(errors).toEqual([]);
    });
  }

  it('is in the server’s pages with scripts off: the poll page, /methods, and today’s only after the close', async () => {
    const { adjusted } = await seedSite();
    const { page } = await scriptlessVisitor(t.browser);
    await page.goto(`${t.site.url}/poll-${adjusted.pollNumber}`);
    expect(await line(page, '.poll-page').textContent()).toMatch(ADJUSTED);
    await line(page, '.poll-page').getByRole('link', { name: 'How we adjust' }).click();
    await expectMethodsPage(page);
    await saveScreenshots(page, 'weighted-no-js-methods');

    await page.goto(`${t.site.url}/faq`);
    // The FAQ's word on the adjusted line, and the footer.
    expect(await page.locator('main a[href="/methods"], footer a[href="/methods"]').count()).toBe(2);

    // Today's results before the close (the vote's own page): no weighted line.
    await page.goto(t.site.url);
    await new TodayPage(page).option('Yes').click();
    await page.locator('.poll-card .pie-chart').waitFor();
    expect(await page.locator('.weighted-line').count()).toBe(0);
    t.site.clock.set(newYorkTime('2026-11-21', '20:00'));
    await page.goto(t.site.url);
    expect(await line(page, '.poll-card').textContent()).toMatch(ADJUSTED);
    await saveScreenshots(page, 'weighted-no-js-today-closed');
  });

  it('appears under today’s results at the close, never before, for a voter with scripts on', async () => {
    await seedSite();
    const { page, errors } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await page.goto(t.site.url);
    await today.option('No').click();
    await today.results.waitFor();
    await page.getByRole('button', { name: 'No Thanks' }).click();
    expect(await page.locator('.weighted-line').count()).toBe(0);

    await setTime(t.site, page, '2026-11-21', '20:00');
    await page.reload();
    // 201 votes: this browser's has no profile, so it counts in the raw result only.
    expect(await line(page, '.poll-card').textContent()).toMatch(ADJUSTED);
    await expectAccessible(page);
    await saveScreenshots(page, 'weighted-today-closed');
    expect(errors).toEqual([]);
  });
});
