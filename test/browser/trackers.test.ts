/**
 * Trackers (issue 38, item 2): /trackers and a tracker page, drawn from the demo data's series,
 * axe-clean in light and dark, each saved at phone and laptop widths to look at.
 */
import { describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/server/demo/seed.js';
import type { TrackerSummary } from '../../src/shared/trackers.js';
import { browserTest, expectAccessible, newVisitor, saveScreenshots } from './support.js';

const t = browserTest();

describe('the trackers’ pages', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`are accessible in ${scheme}, and saved at phone and laptop widths`, async () => {
      await seedDemo(t.site.db, t.site.clock.now(), t.site.config.site);
      const trackers = (await (await fetch(`${t.site.url}/api/trackers`)).json()) as TrackerSummary[];
      expect(trackers.length).toBeGreaterThanOrEqual(2);
      const [first] = trackers;
      if (!first) throw new Error('no tracker');
      const { page } = await newVisitor(t.browser, t.site);
      await page.emulateMedia({ colorScheme: scheme });

      await page.goto(`${t.site.url}/trackers`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByRole('link', { name: first.name }).first().waitFor();
      await expectAccessible(page);
      await saveScreenshots(page, `trackers-${scheme}`);

      await page.goto(`${t.site.url}/trackers/${first.slug}`);
      await page.getByRole('heading', { level: 1, name: first.name }).waitFor();
      await page.getByRole('table').first().waitFor();
      await expectAccessible(page);
      await saveScreenshots(page, `tracker-${scheme}`);
    }, 120_000);
  }
});
