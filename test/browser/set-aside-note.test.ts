/**
 * "N votes set aside after review" wherever the app shows results, and its link to "How we keep
 * results honest" in the FAQ: drawn by the server (scripts off), kept by the app (scripts on),
 * and the link lands on the section either way.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { insertSetAsideVotes, seedPoll } from '../../src/server/testing/fixtures.js';
import { TodayPage } from './pages.js';
import {
  browserTest,
  expectAccessible,
  newVisitor,
  PHONE,
  saveScreenshots,
  scriptlessVisitor,
  setTime,
} from './support.js';

const t = browserTest();

/** A past poll with 1,234 votes set aside (held and discounted), one with none, and today's with one held. */
async function seedSite() {
  const stuffed = await seedPoll(t.site.db, {
    question: 'Should cursive still be taught in elementary school?',
    options: ['Yes', 'No', 'Only reading it'],
    status: 'past',
    liveDate: '2026-11-19',
    votes: [5, 4, 1],
  });
  await insertSetAsideVotes(t.site.db, stuffed, 1200, 'held');
  await insertSetAsideVotes(t.site.db, stuffed, 34, 'discounted');
  const clean = await seedPoll(t.site.db, {
    question: 'Should recess be longer?',
    options: ['Yes', 'No'],
    status: 'past',
    liveDate: '2026-11-20',
    votes: [3, 1],
  });
  const today = await seedPoll(t.site.db, {
    question: 'Should homework be banned?',
    options: ['Yes', 'No'],
    votes: [2, 1],
  });
  await insertSetAsideVotes(t.site.db, today, 1);
  return { stuffed, clean, today };
}

const NOTE = '1,234 votes set aside after review';

/** The section's heading is on screen, at the top of the viewport rather than merely somewhere in the page. */
async function expectSectionInView(page: Page) {
  expect(new URL(page.url()).pathname + new URL(page.url()).hash).toBe('/faq#honest-results');
  const heading = page.getByRole('heading', { name: 'How we keep results honest', level: 2 });
  await heading.waitFor();
  await expect.poll(() => topOf(heading)).toBeLessThan(PHONE.height / 3);
  expect(await topOf(heading)).toBeGreaterThanOrEqual(0);
  const section = page.locator('section#honest-results');
  const text = (await section.textContent()) ?? '';
  for (const words of [
    'One vote per browser',
    'unusual bursts of votes from one network',
    'faster than a person could read',
    'the same answer coming in over and over from one place',
    'The browser does it on its own',
    'held, not thrown away',
    'Our staff are told by e-mail when something looks wrong',
    'set votes aside or restore them. Every action is logged',
    'votes that were held or set aside are deleted along with the other checking details; counted votes stay',
    'how many votes were set aside after review',
    'never held just for being busy',
    'split like everyone else’s are counted without anyone having to step in',
    'No addresses are stored',
  ]) {
    expect(text).toContain(words);
  }
  // Plain words, no thresholds: no figure at all.
  expect(text).not.toMatch(/\d/);
}

const topOf = (locator: Locator) => locator.evaluate((element) => element.getBoundingClientRect().top);

describe('votes set aside after review', () => {
  it('are said under a past poll’s total and in its breakdown, and the link scrolls to the FAQ’s section', async () => {
    const { stuffed, clean } = await seedSite();
    const { page, errors } = await newVisitor(t.browser, t.site);
    await page.goto(`${t.site.url}/poll-${stuffed.pollNumber}`);
    expect(await page.locator('.poll-page__total').textContent()).toBe('Total: 10 votes');
    const note = page.locator('.poll-page .set-aside-note');
    expect(await note.textContent()).toBe(NOTE);
    expect(await note.getByRole('link').getAttribute('href')).toBe('/faq#honest-results');
    expect(await page.locator('.teachers-like-you__sample').textContent()).toBe(
      `A self-selected sample of 10 teachers; the bars are not weighted. ${NOTE}.`,
    );
    await expectAccessible(page);
    await saveScreenshots(page, 'set-aside-past-poll');

    await note.getByRole('link').click();
    await expectSectionInView(page);
    await expectAccessible(page);
    await saveScreenshots(page, 'set-aside-faq');

    // Back, and on a poll with nothing set aside there is nothing to say.
    await page.goBack();
    await note.waitFor();
    await page.goto(`${t.site.url}/poll-${clean.pollNumber}`);
    await page.getByRole('heading', { name: 'Should recess be longer?' }).waitFor();
    expect(await page.getByText('set aside').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('are in the server’s page with scripts off, and the link lands on the section', async () => {
    const { stuffed, clean } = await seedSite();
    const { page } = await scriptlessVisitor(t.browser);
    await page.goto(`${t.site.url}/poll-${stuffed.pollNumber}`);
    const note = page.locator('.poll-page .set-aside-note');
    expect(await note.textContent()).toBe(NOTE);
    await saveScreenshots(page, 'set-aside-no-js-past-poll');
    await note.getByRole('link').click();
    await expectSectionInView(page);

    await page.goto(`${t.site.url}/poll-${clean.pollNumber}`);
    await page.getByRole('heading', { name: 'Should recess be longer?' }).waitFor();
    expect(await page.getByText('set aside').count()).toBe(0);

    await page.goto(`${t.site.url}/?view=archive`);
    const items = page.locator('.archive__item');
    expect(await items.nth(0).locator('.archive__totals').textContent()).toBe('4 votes');
    expect(await items.nth(1).locator('.archive__totals').textContent()).toBe(`10 votes${NOTE}`);
  });

  it('are not said under today’s results while voting is open (silent to stuffers), and to everyone after the close', async () => {
    await seedSite();
    const { page, errors } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await page.goto(t.site.url);
    await today.question.waitFor();
    expect(await page.getByText('set aside').count()).toBe(0); // no results, no note
    await today.option('No').click();
    await today.results.waitFor();
    await page.getByRole('button', { name: 'No Thanks' }).click();
    expect(await page.getByText('set aside').count()).toBe(0);
    await expectAccessible(page);

    // After the close, anyone sees it, from the page the server draws alone.
    await setTime(t.site, page, '2026-11-21', '20:00');
    const { page: scriptless } = await scriptlessVisitor(t.browser);
    await scriptless.goto(t.site.url);
    expect(await scriptless.locator('.poll-card .set-aside-note').textContent()).toBe('1 vote set aside after review');
    expect(await scriptless.locator('.teachers-like-you__sample').textContent()).toContain(
      '1 vote set aside after review.',
    );
    expect(errors).toEqual([]);
  });
});
