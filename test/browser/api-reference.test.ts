/**
 * The API reference at /api (issue 40): drawn on the server, searchable with scripts off (the
 * form's GET gives the search its own address), axe-clean in light and dark under the site's
 * Content-Security-Policy (nothing refused: no console error), with screenshots at phone and
 * laptop widths.
 */
import { describe, expect, it } from 'vitest';
import {
  browserTest,
  expectAccessible,
  LAPTOP,
  newVisitor,
  PHONE,
  saveScreenshots,
  scriptlessVisitor,
} from './support.js';

const t = browserTest();

describe('the API reference', () => {
  it('is searched with scripts off: the form narrows the calls at an address of its own', async () => {
    const { page } = await scriptlessVisitor(t.browser, { viewport: PHONE });
    await page.goto(`${t.site.url}/api`, { waitUntil: 'load' });
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('API reference');
    await page.getByRole('searchbox', { name: 'Search the calls' }).fill('reminders');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/api\?q=reminders$/);
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/^\d+ of \d+ calls match “reminders”/);
    const paths = await page.locator('article.op .path').allTextContents();
    expect(paths.length).toBeGreaterThan(2);
    for (const path of paths) expect(path).toMatch(/\/reminder/);
    expect(paths).toContain('/api/reminders/test');
  });

  it('is axe-clean in light and dark, breaks no rule of the CSP, and is saved as screenshots', async () => {
    const { page, errors } = await newVisitor(t.browser, t.site, LAPTOP);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${t.site.url}/api?q=vote`, { waitUntil: 'load' });
      await expectAccessible(page);
      await saveScreenshots(page, `api-search-${scheme}`);
      await page.goto(`${t.site.url}/api`, { waitUntil: 'load' });
      await expectAccessible(page);
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: `test-results/screenshots/api-${scheme}-phone.png` });
      await page.setViewportSize(LAPTOP);
      await page.screenshot({ path: `test-results/screenshots/api-${scheme}-laptop.png` });
    }
    // Nothing the Content-Security-Policy refused (the browser's own ask for /favicon.ico may 404).
    expect(errors.filter((error) => /Content Security Policy|Refused to/i.test(error))).toEqual([]);
    // The whole reference (every call and schema) is long: axe reads all of it, twice.
  }, 300_000);
});
