/**
 * The pages' Content Security Policy is never even tried: on every public page and flow, no
 * script, style or frame asks for anything the policy forbids (watchCspViolations says how
 * that is seen).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { AdminPanel, TodayPage } from './pages.js';
import { browserTest, LAPTOP, newVisitor, watchCspViolations } from './support.js';

const t = browserTest();

const question = 'Should homework be banned in elementary school?';
const seedPolls = async () => ({
  past: await seedPoll(t.site.db, {
    question: 'Recess before lunch?',
    options: ['Yes', 'No'],
    status: 'past',
    liveDate: '2026-11-20',
    votes: [4, 2],
  }),
  today: await seedPoll(t.site.db, { question, options: ['Yes', 'No', 'Depends on the grade'], votes: [3, 1, 0] }),
});

/** Every violation any page of the visitor's browser reports (watchCspViolations). */
let violations: string[] = [];
afterEach(() => {
  violations = [];
});

async function watchedVisitor(viewport?: typeof LAPTOP): Promise<{ page: Page; context: BrowserContext }> {
  const visitor = await newVisitor(t.browser, t.site, viewport);
  violations = await watchCspViolations(visitor);
  return visitor;
}

describe('the Content Security Policy', () => {
  it('holds while a teacher votes, subscribes and shares today’s poll', async () => {
    await seedPolls();
    const { page } = await watchedVisitor();
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.option('No').click();
    await today.subscribeModal.waitFor();
    await today.results.waitFor();
    // The form is checked in the browser with the server's schemas (zod) before it is sent.
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await today.toast('Email required').waitFor();
    await page.getByLabel('Email address').fill('pat@example.org');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await today.toast('Subscribed! 🎉').waitFor();
    await today.subscribeModal.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this poll' });
    const qr = dialog.getByRole('img', { name: /^QR code/ });
    await expect
      .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await dialog.getByText('Embed', { exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Embed code' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(violations).toEqual([]);
  });

  it('holds on the archive, a past poll and its print sheet, the FAQ, terms, privacy and a 404', async () => {
    const { past } = await seedPolls();
    const { page } = await watchedVisitor();
    await page.goto(`${t.site.url}/?view=archive`);
    await page.getByRole('link', { name: past.question }).first().click();
    await page.getByRole('link', { name: 'Print' }).click();
    await page.getByRole('heading', { name: past.question }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/poll-${past.pollNumber}/print`);
    for (const [path, heading] of [
      ['/faq', 'Frequently Asked Questions'],
      ['/terms', 'Terms of Service'],
      ['/privacy', 'Privacy & Cookie Policy'],
      ['/reminders', 'Reminders'],
      ['/no-such-page', '404 Page Not Found'],
    ]) {
      await page.goto(`${t.site.url}${path}`);
      await page.getByRole('heading', { name: heading }).waitFor();
    }
    await page.goto(`${t.site.url}/faq`);
    await page.locator('main details.faq__item summary').first().click();
    expect(violations).toEqual([]);
  });

  it('holds while a teacher suggests a poll', async () => {
    await seedPolls();
    const { page } = await watchedVisitor();
    const today = new TodayPage(page);
    await page.goto(`${t.site.url}/?view=suggest`);
    await page.getByRole('button', { name: 'Submit Suggestion' }).click();
    await today.toast('Question required').waitFor();
    await page.getByLabel('Your poll question').fill('Should schools start later for teenagers?');
    await page.getByLabel('Option 1').fill('Yes');
    await page.getByLabel('Option 2').fill('No');
    await page.getByRole('button', { name: 'Submit Suggestion' }).click();
    await today.toast('Suggestion submitted!').waitFor();
    expect(violations).toEqual([]);
  });

  it('holds while staff sign in and check a new poll', async () => {
    await seedPolls();
    const { page } = await watchedVisitor(LAPTOP);
    await page.goto(`${t.site.url}/admin/polls`);
    const admin = new AdminPanel(page);
    await admin.signIn('not the password');
    await admin.toast('Access denied').waitFor();
    await admin.signIn();
    await page.getByRole('heading', { name: 'Admin Panel', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Create Poll' }).click();
    await admin.toast('Required fields missing').waitFor();
    expect(violations).toEqual([]);
  });

  it('holds in the embeds of today’s poll and of a past one', async () => {
    const { past } = await seedPolls();
    const { page } = await watchedVisitor();
    await page.goto(`${t.site.url}/embed/today`);
    await page.getByText(question).waitFor();
    await page.goto(`${t.site.url}/embed/poll-${past.pollNumber}`);
    await page.getByText(past.question).waitFor();
    expect(violations).toEqual([]);
  });
});
