/**
 * Dark mode, in Chromium: every page passes axe in both colour schemes, the footer's choice
 * (System / Light / Dark) is remembered on this browser, and a stored Dark is there at the
 * first paint, before any of the app's script runs.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { AdminPanel, TodayPage } from './pages.js';
import { browserTest, expectAccessible, LAPTOP, newVisitor, saveScreenshots, scriptlessVisitor } from './support.js';

const t = browserTest();

/** The page's background as the visitor sees it: body is transparent, so the root's. */
const LIGHT_PAPER = 'rgb(245, 247, 244)';
const DARK_PAPER = 'rgb(28, 25, 23)';
const paper = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

async function seed() {
  const past = await seedPoll(t.site.db, {
    question: 'Should cursive still be taught in elementary school?',
    options: ['Yes', 'No', 'Only reading it', 'Typing instead', 'Both', 'Neither'],
    status: 'past',
    liveDate: '2026-11-20',
    votes: [6, 5, 4, 3, 2, 1],
  });
  await seedPoll(t.site.db, { question: 'Should homework be banned?', options: ['Yes', 'No'], votes: [2, 1] });
  return past;
}

describe('both colour schemes', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`every page passes axe in the ${scheme} scheme, the chart and the admin panel too`, async () => {
      const past = await seed();
      const { page, errors } = await newVisitor(t.browser, t.site);
      await page.emulateMedia({ colorScheme: scheme });

      await page.goto(t.site.url);
      await new TodayPage(page).question.waitFor();
      expect(await paper(page)).toBe(scheme === 'dark' ? DARK_PAPER : LIGHT_PAPER);
      await expectAccessible(page);
      await saveScreenshots(page, `theme-${scheme}-today`);

      await page.goto(`${t.site.url}/poll-${past.pollNumber}`);
      await page.locator('.pie-chart path').first().waitFor();
      await expectAccessible(page);
      await saveScreenshots(page, `theme-${scheme}-poll`);

      await page.goto(`${t.site.url}/faq`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectAccessible(page);

      await page.setViewportSize(LAPTOP);
      await page.goto(`${t.site.url}/admin/polls`);
      const admin = new AdminPanel(page);
      await expectAccessible(page); // the sign-in form
      await admin.signIn();
      await page.getByRole('button', { name: 'Update Poll Status' }).first().waitFor();
      await admin.toast('Access granted').waitFor();
      await expectAccessible(page);
      await saveScreenshots(page, `theme-${scheme}-admin`);
      expect(errors).toEqual([]);
    }, 90_000);
  }
});

describe('the footer choice', () => {
  it('is read only after hydration, switches at once, survives a reload and is dark at the first paint', async () => {
    await seed();
    const { page, errors } = await newVisitor(t.browser, t.site);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(t.site.url);
    const theme = page.getByRole('group', { name: 'Theme' });
    await expect.poll(() => theme.getByRole('radio', { name: 'System' }).isChecked()).toBe(true);
    expect(await paper(page)).toBe(LIGHT_PAPER);

    await theme.getByRole('radio', { name: 'Dark' }).check();
    expect(await theme.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await expect.poll(() => paper(page)).toBe(DARK_PAPER);

    // Reloaded under a light system with the app's script held back: theme.js alone has set
    // the theme by the time the body first appears, so the first paint is already dark.
    expect(errors).toEqual([]);
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector('body')) return;
        observer.disconnect();
        document.documentElement.dataset.themeAtBody = document.documentElement.getAttribute('data-theme') ?? 'none';
      }).observe(document, { childList: true, subtree: true });
    });
    const heldBack: string[] = [];
    await page.route('**/assets/*.js', (route) => {
      heldBack.push(route.request().url());
      return route.abort();
    });
    // The page asks for the app only after its first paint, which may come after `load`: wait
    // until it has asked and been refused, so no refusal is reported once the app may load.
    const appRefused = page.waitForEvent('requestfailed', (request) =>
      /\/assets\/index-[\w-]+\.js$/.test(request.url()),
    );
    await page.reload({ waitUntil: 'load' });
    expect(await page.evaluate(() => document.documentElement.dataset.themeAtBody)).toBe('dark');
    expect(await paper(page)).toBe(DARK_PAPER);
    await appRefused;
    await expect.poll(() => errors.filter((e) => e.includes('ERR_FAILED')).length).toBe(heldBack.length);
    await page.unroute('**/assets/*.js');
    errors.length = 0; // the held-back scripts, reported as failed loads

    // With the app running, the footer shows the stored choice once hydrated.
    await page.reload();
    await expect.poll(() => theme.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);
    expect(await paper(page)).toBe(DARK_PAPER);

    // Light wins over a dark system; System follows it again and forgets the choice.
    await page.emulateMedia({ colorScheme: 'dark' });
    await theme.getByRole('radio', { name: 'Light' }).check();
    await expect.poll(() => paper(page)).toBe(LIGHT_PAPER);
    await page.reload();
    await expect.poll(() => theme.getByRole('radio', { name: 'Light' }).isChecked()).toBe(true);
    expect(await paper(page)).toBe(LIGHT_PAPER);
    await theme.getByRole('radio', { name: 'System' }).check();
    await expect.poll(() => paper(page)).toBe(DARK_PAPER);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
    expect(errors).toEqual([]);
  });

  it('with scripts off, a dark system gives a dark page from the server alone', async () => {
    await seed();
    const { page } = await scriptlessVisitor(t.browser, { colorScheme: 'dark' });
    await page.goto(t.site.url, { waitUntil: 'load' });
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe(DARK_PAPER);
  });
});
