/**
 * The close time is written the same way wherever it appears, with its zone, since a link
 * travels to readers in other zones: on today's page and the FAQ (drawn by the server, then by
 * the browser), in the embed and on the print sheet, on the link-preview image, in the calendar
 * reminder and in the API's refusal of an early breakdown. Here on a site in Chicago closing at
 * 15:30, which no default would produce.
 */
import { describe, expect, it } from 'vitest';
import type { OgCard } from '../../src/server/og/og-image.js';
import { renderOgImage } from '../../src/server/og/og-image.js';
import { PreviewImages } from '../../src/server/og/preview-images.js';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { TodayPage } from './pages.js';
import { browserTest, newVisitor } from './support.js';

const drawn: OgCard[] = [];
const t = browserTest({
  env: { SITE_TIMEZONE: 'America/Chicago', VOTING_CLOSES_AT: '15:30' },
  previewImages: new PreviewImages({
    render: (card) => {
      drawn.push(card);
      return renderOgImage(card);
    },
  }),
});

const CLOSES = '3:30 PM Central Time';

const text = async (path: string) => (await fetch(`${t.site.url}${path}`)).text();

describe('the close time', () => {
  it('reads "3:30 PM Central Time" on every page, embed, sheet, image, calendar and message', async () => {
    const poll = await seedPoll(t.site.db, { question: 'Should recess be longer?', options: ['Yes', 'No'] });
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.option('Yes').click();
    await today.subscribeModal.waitFor();
    await page.getByRole('button', { name: 'No Thanks' }).click();
    expect(await page.locator('.breakdowns-open').textContent()).toBe(
      `Breakdowns by role, grade and region open when voting closes at ${CLOSES}.`,
    );
    await page.goto(`${t.site.url}/faq`);
    expect(await page.locator('main').textContent()).toContain(`Voting closes at ${CLOSES} each day.`);

    const breakdown = await fetch(`${t.site.url}/api/polls/${poll.id}/breakdown`);
    expect(((await breakdown.json()) as { message: string }).message).toBe(
      `Breakdowns by role, grade and region open when voting closes at ${CLOSES}.`,
    );
    expect(await text('/embed/today')).toContain(`Voting closes at ${CLOSES}.`);
    expect(await text(`/poll-${poll.pollNumber}/print`)).toContain(`Voting closes at ${CLOSES}.`);
    // Long lines of a calendar file are folded: a line break and a space.
    expect((await text('/reminder.ics')).replace(/\r\n[ \t]/g, '')).toContain(`Voting closes at ${CLOSES}.`);
    expect((await fetch(`${t.site.url}/og/today.png`)).status).toBe(200);
    expect(drawn).toEqual([expect.objectContaining({ kind: 'vote', closesAt: CLOSES })]);
  });
});
