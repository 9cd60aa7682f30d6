/** The notification area (toasts) from the keyboard, in Chromium. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { TodayPage } from './pages.js';
import { browserTest, expectAccessible, newVisitor, saveScreenshots } from './support.js';

const t = browserTest();

const seedToday = () =>
  seedPoll(t.site.db, { question: 'Should homework be banned?', options: ['Yes', 'No'], votes: [2, 1] });

/** The accessible name of the landmark region that holds the focused element, if any. */
const focusedRegion = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('[role="region"]')?.getAttribute('aria-label') ?? null);

describe('F8', () => {
  it('focuses the notification area before any toast has appeared', async () => {
    await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.question.waitFor();
    expect(await page.locator('.toast').count()).toBe(0);

    await page.keyboard.press('F8');
    expect(await focusedRegion(page)).toBe('Notifications (F8)');
    await expectAccessible(page);
  });

  it('keeps focus in the notification area when the first toast arrives there, and works after it', async () => {
    await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/polls/*/vote', async (route) => {
      await held;
      await route.abort('internetdisconnected');
    });
    await today.goto(t.site.url);
    await today.option('No').click();

    // While the vote is on its way, a keyboard user jumps to the notifications ...
    await page.keyboard.press('F8');
    expect(await focusedRegion(page)).toBe('Notifications (F8)');
    // ... and is still there, now beside the toast, when it comes.
    release();
    await today.toast('Just a heads up!').waitFor();
    expect(await focusedRegion(page)).toBe('Notifications (F8)');
    expect(await page.evaluate(() => document.activeElement?.contains(document.querySelector('.toast')))).toBe(true);
    expect(await page.getByRole('region', { name: 'Notifications (F8)' }).count()).toBe(1);
    // From there the keyboard reaches the toast's action.
    let focused = '';
    for (let i = 0; i < 3 && focused !== 'Try again'; i += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    }
    expect(focused).toBe('Try again');
    await expectAccessible(page);
    await saveScreenshots(page, 'toast-with-action');

    // Focus elsewhere; F8 brings it back to the toast.
    await page.getByRole('button', { name: 'Share', exact: true }).focus();
    await page.keyboard.press('F8');
    expect(await focusedRegion(page)).toBe('Notifications (F8)');
  });
});
