/**
 * The embed in Chromium, framed by a page of another origin (a second local server): it shows
 * the poll, fits 300 px, passes axe in both colour schemes, and its vote link opens the site in
 * a new tab with the option picked, to confirm there. Every other page refuses to be framed.
 */
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertSetAsideVotes, seedPoll } from '../../src/server/testing/fixtures.js';
import { TodayPage } from './pages.js';
import { browserTest, expectAccessible, newVisitor } from './support.js';

const t = browserTest();

/** Another origin: a page that frames whatever it is asked to. */
let host: http.Server;
let hostUrl: string;
beforeEach(async () => {
  host = http.createServer((request, response) => {
    const src = new URL(request.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    const width = new URL(request.url ?? '/', 'http://x').searchParams.get('width') ?? '300';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="en"><head><title>A school newsletter</title></head><body>` +
        `<h1>Staff news</h1><iframe id="poll" src="${src}" title="Today's poll" width="${width}" height="520" style="border:1px solid #ccc"></iframe></body></html>`,
    );
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as net.AddressInfo).port}`;
});
afterEach(() => new Promise<void>((resolve) => host.close(() => resolve())));

const SCREENSHOTS = path.resolve('test-results', 'screenshots');

describe('the embed, framed by another site', () => {
  it('shows today’s poll at 300 px, and its vote link opens the site with that option picked, to confirm', async () => {
    const today = await seedPoll(t.site.db, {
      question: 'Should staff meetings be capped at 30 minutes?',
      options: ['Yes', 'No', 'Only on Fridays'],
    });
    const { page, context, errors } = await newVisitor(t.browser, t.site);
    await page.goto(`${hostUrl}/?src=${encodeURIComponent(`${t.site.url}/embed/today`)}`);
    const frame = page.frameLocator('#poll');
    await frame.getByRole('heading', { name: today.question }).waitFor();
    const embed = page.frame({ url: /\/embed\/today$/ });
    expect(embed).not.toBeNull();
    // Readable at 300 px: nothing wider than the frame.
    expect(await embed?.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(300);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.locator('#poll').screenshot({ path: path.join(SCREENSHOTS, 'embed-today-300px.png') });

    const [site] = await Promise.all([
      context.waitForEvent('page'),
      frame.getByRole('link', { name: /^Only on Fridays Vote on Teacher Hot Take/ }).click(),
    ]);
    await site.waitForLoadState();
    expect(new URL(site.url()).search).toBe(`?vote=2&poll=${today.pollNumber}`);
    const confirm = site.getByRole('button', { name: 'Vote “Only on Fridays”' });
    await confirm.waitFor();
    expect(await site.getByText('Confirm your vote:').isVisible()).toBe(true);
    expect(await confirm.evaluate((button) => button === document.activeElement)).toBe(true);
    // Nothing was cast on arrival.
    const before = await site.evaluate(async () => (await fetch('/api/polls/active')).json() as Promise<unknown>);
    expect(before).toMatchObject({ userVoted: false });
    await expectAccessible(site);

    await confirm.click();
    await new TodayPage(site).results.waitFor();
    const after = await site.evaluate(async () => (await fetch('/api/polls/active')).json() as Promise<unknown>);
    expect(after).toMatchObject({ userVoted: true, userVoteOption: 2 });
    expect(new URL(site.url()).search).toBe('');
    expect(errors).toEqual([]);
  });

  it('picks nothing from a link made for another poll, and lets the visitor choose another', async () => {
    const today = await seedPoll(t.site.db, { options: ['Yes', 'No'] });
    const { page } = await newVisitor(t.browser, t.site);
    await page.goto(`${t.site.url}/?vote=1&poll=${today.pollNumber + 5}`);
    await page.getByRole('button', { name: 'Yes' }).waitFor();
    expect(await page.getByText('Confirm your vote:').count()).toBe(0);

    await page.goto(`${t.site.url}/?vote=1`);
    await page.getByRole('button', { name: 'Choose another' }).click();
    expect(await page.getByText('Confirm your vote:').count()).toBe(0);
    const state = await page.evaluate(async () => (await fetch('/api/polls/active')).json() as Promise<unknown>);
    expect(state).toMatchObject({ userVoted: false });
  });

  it('shows a past poll’s results and the votes set aside, accessible in light and dark', async () => {
    const past = await seedPoll(t.site.db, {
      question: 'Should cursive still be taught?',
      options: ['Yes', 'No', 'Only reading it'],
      status: 'past',
      liveDate: '2026-11-20',
      votes: [5, 4, 1],
    });
    await insertSetAsideVotes(t.site.db, past, 2);
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, errors } = await newVisitor(t.browser, t.site);
      await page.emulateMedia({ colorScheme });
      await page.goto(`${hostUrl}/?src=${encodeURIComponent(`${t.site.url}/embed/poll-${past.pollNumber}`)}&width=320`);
      const frame = page.frameLocator('#poll');
      await frame.getByText('50% · 5 votes').waitFor();
      expect(await frame.getByRole('link', { name: /^2 votes set aside after review/ }).getAttribute('href')).toBe(
        `${t.site.publicUrl}/faq#honest-results`,
      );
      await page.locator('#poll').screenshot({ path: path.join(SCREENSHOTS, `embed-past-${colorScheme}.png`) });
      // The embed on its own, as axe checks a page.
      await page.goto(`${t.site.url}/embed/poll-${past.pollNumber}`);
      await expectAccessible(page);
      expect(errors).toEqual([]);
    }
  });

  it('is the only page another site can frame', async () => {
    await seedPoll(t.site.db);
    const { page } = await newVisitor(t.browser, t.site);
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors|X-Frame-Options/.test(message.text())) refusals.push(message.text());
    });
    for (const pathname of ['/', '/faq']) {
      await page.goto(`${hostUrl}/?src=${encodeURIComponent(`${t.site.url}${pathname}`)}`);
      await expect.poll(() => refusals.length).toBeGreaterThan(0);
      refusals.length = 0;
      // The frame never shows the site.
      expect(await page.frameLocator('#poll').getByText('Teacher Hot Take').count()).toBe(0);
    }
  });
});
