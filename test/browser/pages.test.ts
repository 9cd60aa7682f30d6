/** Every other screen a visitor sees, in Chromium: content, navigation, accessibility, size. */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { insertSetAsideVotes, seedPoll } from '../../src/server/testing/fixtures.js';
import { TodayPage } from './pages.js';
import { browserTest, expectAccessible, newVisitor, saveScreenshots } from './support.js';

const t = browserTest();

/**
 * Today's poll plus three past ones, from 1, 2 and 9 days ago; yesterday's and today's with
 * votes set aside after review, so every screen that shows results shows that note too.
 */
async function seedHistory() {
  await seedPoll(t.site.db, { question: 'Nine days ago?', status: 'past', liveDate: '2026-11-12', votes: [1, 0, 0] });
  await seedPoll(t.site.db, { question: 'Two days ago?', status: 'past', liveDate: '2026-11-19', votes: [2, 2, 1] });
  const yesterday = await seedPoll(t.site.db, {
    question: 'Should cursive still be taught in elementary school?',
    description: 'Some states have brought it back.',
    options: ['Yes', 'No', 'Only reading it'],
    status: 'past',
    liveDate: '2026-11-20',
    votes: [5, 4, 1],
  });
  await insertSetAsideVotes(t.site.db, yesterday, 3);
  const today = await seedPoll(t.site.db, {
    question: 'Should homework be banned?',
    options: ['Yes', 'No'],
    votes: [2, 1],
  });
  await insertSetAsideVotes(t.site.db, today, 1);
  return { yesterday, today };
}

describe('the archive and closed-poll pages', () => {
  it('lists past polls with their days, opens one with all its votes, and goes back', async () => {
    const { yesterday } = await seedHistory();
    const { page, errors } = await newVisitor(t.browser, t.site);
    await page.goto(`${t.site.url}/?view=archive`);

    const heading = page.getByRole('heading', { name: /Past Hot Takes/ });
    // The heading shows while the list loads; its count comes with the list.
    await expect.poll(() => heading.textContent()).toBe('Past Hot Takes3');
    const items = page.locator('.archive__item');
    await expect.poll(() => items.count()).toBe(3);
    expect(await items.locator('.archive__meta').allTextContents()).toEqual([
      'Yesterday · Poll #3',
      '2 days ago · Poll #2',
      'November 12, 2026 · Poll #1',
    ]);
    expect(await page.title()).toBe('Past Hot Takes · Teacher Hot Take');

    await items
      .first()
      .getByRole('link', { name: `See all votes for poll ${yesterday.pollNumber}` })
      .click();
    await page.getByRole('heading', { name: yesterday.question }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/poll-3');
    expect(await page.title()).toBe(`${yesterday.question} · Teacher Hot Take`);
    expect(await page.locator('.poll-page__description').textContent()).toBe('Some states have brought it back.');
    expect(await page.getByRole('article').locator('.result-bars').textContent()).toContain('50% · 5 votes');
    expect(await page.getByRole('article').locator('.result-bars').textContent()).toContain('10% · 1 vote');
    expect(await page.locator('.poll-page__total').textContent()).toBe('Total: 10 votes');
    expect(await page.locator('.poll-page__closed').textContent()).toBe('Poll closed');
    await page.locator('.pie-chart').waitFor();

    await page.getByRole('link', { name: '← Back to Past Hot Takes' }).click();
    await heading.waitFor();
    expect(new URL(page.url()).search).toBe('?view=archive');
    expect(errors).toEqual([]);
  });

  it('copies a closed poll’s link when the device has no share sheet', async () => {
    await seedHistory();
    const { page } = await newVisitor(t.browser, t.site);
    await page.addInitScript(() => Object.defineProperty(navigator, 'share', { value: undefined }));
    await page.goto(`${t.site.url}/poll-3`);
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('button', { name: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${t.site.publicUrl}/poll-3`);
    await page.clock.runFor(2000);
    await page.getByRole('button', { name: 'Share' }).waitFor();
  });

  it('shows "Poll Not Found" for an unknown poll, and sends today’s number to today’s card', async () => {
    const { today } = await seedHistory();
    const { page } = await newVisitor(t.browser, t.site);
    await page.goto(`${t.site.url}/poll-99`);
    await page.getByRole('heading', { name: 'Poll Not Found' }).waitFor();
    expect(await page.locator('.poll-page__missing').textContent()).toContain('This poll could not be found');
    await page.getByRole('link', { name: 'Go Home' }).click();
    await new TodayPage(page).question.waitFor();

    await page.goto(`${t.site.url}/poll-${today.pollNumber}`);
    await new TodayPage(page).question.waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('tells link previews the question and its image, as Chromium reads the head', async () => {
    const question = `Is "homework" <b id="injected">worth</b> it? Tom & Jerry's take 🍎 </title><script>alert(1)</script>`;
    const past = await seedPoll(t.site.db, { question, status: 'past', liveDate: '2026-11-20', votes: [4, 1, 0] });
    await seedPoll(t.site.db, { question: 'Should recess be longer?', options: ['Yes', 'No'] });
    const { page, errors } = await newVisitor(t.browser, t.site);
    const headOf = () =>
      page.evaluate(() => ({
        meta: Object.fromEntries(
          [...document.head.querySelectorAll<HTMLMetaElement>('meta[property], meta[name]')].map((m) => [
            m.getAttribute('property') ?? m.name,
            m.content,
          ]),
        ),
        canonical: document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href,
        // The page's own classic scripts are two, written in by the server: theme and app loader.
        injected:
          document.querySelectorAll('#injected').length + document.querySelectorAll('script:not([type])').length - 2,
      }));

    await page.goto(`${t.site.url}/poll-${past.pollNumber}`);
    await page.getByRole('heading', { name: question }).waitFor();
    const pastHead = await headOf();
    expect(pastHead.meta['og:title']).toBe(question);
    expect(pastHead.meta['og:description']).toBe('Final results: 5 votes. Poll closed.');
    expect(pastHead.meta['og:url']).toBe(`${t.site.publicUrl}/poll-${past.pollNumber}`);
    expect(pastHead.canonical).toBe(`${t.site.publicUrl}/poll-${past.pollNumber}`);
    expect(pastHead.injected).toBe(0);
    // The image the head names is there, as a PNG, at the canonical address's path.
    const image = new URL(pastHead.meta['og:image'] ?? '');
    expect(image.origin).toBe(t.site.publicUrl);
    const png = await page.request.get(`${t.site.url}${image.pathname}${image.search}`);
    expect(png.status()).toBe(200);
    expect(png.headers()['content-type']).toBe('image/png');

    await page.goto(t.site.url);
    await new TodayPage(page).question.waitFor();
    const todayHead = await headOf();
    expect(todayHead.meta['og:title']).toBe('Should recess be longer?');
    expect(todayHead.meta['og:url']).toBe(`${t.site.publicUrl}/`);
    expect(todayHead.meta['og:image']).toMatch(/\/og\/today\.png\?v=/);
    expect(errors).toEqual([]);
  });

  it('shows the empty archive', async () => {
    const { page } = await newVisitor(t.browser, t.site);
    await page.goto(`${t.site.url}/?view=archive`);
    await page.getByRole('heading', { name: 'No Poll History' }).waitFor();
    expect(await page.locator('.archive__empty').textContent()).toContain('No past polls yet');
  });
});

describe('suggesting a poll', () => {
  it('explains what is missing, keeps 2 to 6 options, and thanks on success', async () => {
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await page.goto(`${t.site.url}/?view=suggest`);
    await page.getByRole('heading', { name: 'Suggest a Poll', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Submit Suggestion' }).click();
    await today.toast('Question required').waitFor();
    expect(await today.toast('Question required').textContent()).toContain('Please enter a poll question.');

    await page.getByLabel('Your poll question').fill('Should schools start later for teenagers?');
    await page.getByLabel('Option 1').fill('Yes');
    await page.getByRole('button', { name: 'Submit Suggestion' }).click();
    await today.toast('Need more options').waitFor();
    expect(await today.toast('Need more options').textContent()).toContain('Please provide at least 2 poll options.');

    expect(await page.getByRole('button', { name: /Remove option/ }).count()).toBe(0);
    for (let i = 0; i < 4; i += 1) await page.getByRole('button', { name: '+ Add option' }).click();
    expect(await page.getByRole('button', { name: '+ Add option' }).count()).toBe(0); // six is the most
    expect(await page.getByRole('button', { name: /Remove option/ }).count()).toBe(6);
    for (let i = 0; i < 4; i += 1)
      await page
        .getByRole('button', { name: /Remove option/ })
        .last()
        .click();
    expect(await page.getByRole('button', { name: /Remove option/ }).count()).toBe(0);

    await page.getByLabel('Option 2').fill('No');
    await page.getByLabel('Your name (optional)').fill('Ms. Rivera');
    await page.getByRole('button', { name: 'Submit Suggestion' }).click();
    await today.toast('Suggestion submitted!').waitFor();
    expect(await page.getByLabel('Your poll question').inputValue()).toBe('');

    const stored = await t.site.db.selectFrom('poll_suggestions').selectAll().executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      question: 'Should schools start later for teenagers?',
      suggested_by: 'Ms. Rivera',
      email: null,
    });
    expect(JSON.parse(stored.options)).toEqual(['Yes', 'No']);
  });

  it('keeps the form folded under today’s poll until asked for', async () => {
    await seedHistory();
    const { page } = await newVisitor(t.browser, t.site);
    await page.goto(t.site.url);
    const trigger = page.getByRole('button', { name: 'Suggest a Poll' });
    await trigger.waitFor();
    expect(await trigger.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByLabel('Your poll question').count()).toBe(0);
    await trigger.click();
    await page.getByLabel('Your poll question').waitFor();
  });
});

describe('navigation and the other pages', () => {
  it('shows the empty state when no poll is live', async () => {
    const { page } = await newVisitor(t.browser, t.site);
    await page.goto(t.site.url);
    await page.getByRole('heading', { name: 'No Active Poll' }).waitFor();
    expect(await page.locator('.poll-card--message').textContent()).toContain(
      'Check back tomorrow for a new hot take!',
    );
  });

  it('answers an unknown address with status 404 and the 404 page', async () => {
    const { page } = await newVisitor(t.browser, t.site);
    const response = await page.goto(`${t.site.url}/no-such-page`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.title()).toBe('404 Page Not Found · Teacher Hot Take');
  });

  it('has FAQ entries that open, and the FAQ’s two buttons', async () => {
    const { page } = await newVisitor(t.browser, t.site);
    await page.goto(`${t.site.url}/faq`);
    await page.getByRole('heading', { name: 'Frequently Asked Questions', level: 1 }).waitFor();
    const entries = page.locator('main details.faq__item');
    expect(await entries.count()).toBe(15);
    const first = entries.first();
    const answer = first.locator('.faq__answer');
    expect(await answer.isVisible()).toBe(false);
    await first.locator('summary').click();
    await answer.waitFor();
    expect((await answer.textContent())?.length).toBeGreaterThan(20);
    // The keyboard opens and closes an entry as it would any disclosure.
    const second = entries.nth(1);
    await second.locator('summary').focus();
    await page.keyboard.press('Enter');
    await second.locator('.faq__answer').waitFor();
    await page.keyboard.press('Space');
    await second.locator('.faq__answer').waitFor({ state: 'hidden' });
    expect(await page.getByRole('link', { name: 'Start Voting Now' }).getAttribute('href')).toBe('/');
    expect(await page.getByRole('link', { name: 'Suggest a Poll' }).getAttribute('href')).toBe('/?view=suggest');
  });

  it('follows the header logo, the bottom tabs, ?admin=true and ?redirect=poll-N', async () => {
    await seedHistory();
    const { page } = await newVisitor(t.browser, t.site);
    await page.goto(`${t.site.url}/?view=archive&admin=true`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Admin' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Results' }).getAttribute('aria-current')).toBe('page');

    await nav.getByRole('link', { name: 'Suggest' }).click();
    await page.getByRole('heading', { name: 'Suggest a Poll', level: 1 }).waitFor();
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);

    await page.getByRole('link', { name: /Teacher Hot Take, today's poll/ }).click();
    await new TodayPage(page).question.waitFor();
    expect(page.url()).toBe(`${t.site.url}/`);
    expect(await page.locator('.welcome-banner').count()).toBe(1);

    await page.goto(`${t.site.url}/?redirect=poll-3`);
    await page.getByRole('heading', { name: /cursive/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/poll-3');

    await page.goto(`${t.site.url}/?view=admin`);
    await page.waitForURL(`${t.site.url}/admin`);
  });
});

describe('every screen', () => {
  it('has no serious or critical accessibility violations, and is saved as screenshots', async () => {
    await seedHistory();
    const { page, errors } = await newVisitor(t.browser, t.site);
    const screens: [string, string, string][] = [
      ['today-voting', '/', '#poll-question'],
      ['archive', '/?view=archive', '.archive__item'],
      ['suggest', '/?view=suggest', '.suggest__form'],
      ['closed-poll', '/poll-3', '.pie-chart'],
      ['faq', '/faq', 'h1'],
      ['terms', '/terms', 'h1'],
      ['privacy', '/privacy', 'h1'],
      ['reminders', '/reminders', 'h1'],
      ['not-found', '/nope', 'h1'],
    ];
    for (const [name, url, ready] of screens) {
      await page.goto(`${t.site.url}${url}`);
      await page.locator(ready).first().waitFor();
      await expectAccessible(page);
      await saveScreenshots(page, name);
    }

    // Today's card after a vote, with the invitation, then without.
    await page.goto(t.site.url);
    const today = new TodayPage(page);
    await today.option('No').click();
    await today.subscribeModal.waitFor();
    await today.results.waitFor();
    await expectAccessible(page);
    await saveScreenshots(page, 'today-subscribe');
    await page.getByRole('button', { name: 'No Thanks' }).click();
    await page.getByText('Poll Results Breakdown').click();
    await page.locator('.breakdown__content .result-bars').waitFor();
    await expectAccessible(page);
    await saveScreenshots(page, 'today-results');
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('dialog', { name: 'Share this poll' }).waitFor();
    await expectAccessible(page);
    await saveScreenshots(page, 'share');
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
  }, 90_000); // eleven screens, each checked by axe and shot at two sizes: over 20 s even on an idle machine

  it('with no poll live, the empty state passes too', async () => {
    const { page } = await newVisitor(t.browser, t.site);
    await page.goto(t.site.url);
    await page.getByRole('heading', { name: 'No Active Poll' }).waitFor();
    await expectAccessible(page);
    await saveScreenshots(page, 'today-empty');
  });
});

describe('the page a teacher first opens', () => {
  it('loads at most 90 KB of gzipped JavaScript before a vote, and the chart only after', async () => {
    await seedHistory();
    const { page } = await newVisitor(t.browser, t.site);
    const scripts: string[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.endsWith('.js')) scripts.push(pathname);
    });
    const today = new TodayPage(page);
    await page.goto(t.site.url);
    await today.question.waitFor();
    await page.waitForLoadState('networkidle');

    const before = [...scripts];
    expect(before.length).toBeGreaterThan(0);
    const clientDir = inject('clientDir');
    const gzipped = before.map((file) => gzipSync(fs.readFileSync(path.join(clientDir, file)), { level: 9 }).length);
    const total = gzipped.reduce((sum, n) => sum + n, 0);
    console.warn(`JavaScript before a vote: ${before.length} files, ${(total / 1024).toFixed(1)} KB gzipped`);
    // Issue 35's target: 89.3 KB since the admin panel's files left the entry's list and the
    // cache is filled without the query library's hydrate() (docs/performance.md). It never grows.
    expect(total).toBeLessThanOrEqual(90 * 1024);
    expect(before.some((file) => /pie-chart|chart-image|share-dialog|subscribe-modal|toaster|schemas/.test(file))).toBe(
      false,
    );

    await today.option('Yes').click();
    await today.results.waitFor();
    expect(scripts.some((file) => file.includes('pie-chart'))).toBe(true);
  });
});
