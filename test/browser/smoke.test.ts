import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { launchChromium, startSite, watchErrors, type Site } from './support.js';

let browser: Browser;
let site: Site;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser.close());
beforeEach(async () => {
  site = await startSite();
});
afterEach(() => site.close());

describe('the site in Chromium', () => {
  it('shows today\'s question, takes a vote and shows the results, with nothing blocked by the CSP', async () => {
    await seedPoll(site.db, { question: 'Should homework be banned?', options: ['Yes', 'No'], votes: [3, 1] });
    const page = await browser.newPage();
    const errors = watchErrors(page);

    await page.goto(site.url);
    await expect.poll(() => page.getByRole('heading', { name: 'Should homework be banned?' }).isVisible()).toBe(true);
    expect(await page.getByRole('listitem').count()).toBe(0); // no peeking before voting

    await page.getByRole('button', { name: 'No' }).click();

    const results = page.getByRole('list');
    await expect.poll(() => results.textContent()).toContain('40% (2 votes)');
    expect(await results.textContent()).toContain('60% (3 votes)');
    // The voter cookie is HttpOnly: page scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).not.toContain('voter_id');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'voter_id')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('answers an unknown address with status 404 and the app\'s 404 page', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${site.url}/no-such-page`);
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.getByRole('heading', { name: '404 Page Not Found' }).isVisible()).toBe(true);
    await page.close();
  });

  it('shows the empty state when no poll is live', async () => {
    const page = await browser.newPage();
    await page.goto(site.url);
    await expect.poll(() => page.getByRole('heading', { name: 'No Active Poll' }).isVisible()).toBe(true);
    await page.close();
  });
});
