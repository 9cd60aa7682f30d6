/** Voting, results, subscribing, sharing and the countdown, as a teacher does them in Chromium. */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { ACTIVE_POLL_REFETCH_MS } from '../../src/client/api/get-active-poll.js';
import { TodayPage } from './pages.js';
import { browserTest, newVisitor, recordToasts, setTime, startSite, toastsShown } from './support.js';

const t = browserTest();

const question = 'Should homework be banned in elementary school?';
const seedToday = () =>
  seedPoll(t.site.db, { question, options: ['Yes', 'No', 'Depends on the grade'], votes: [3, 1, 0] });

describe('voting', () => {
  it('takes a vote, shows the results, invites to subscribe, and subscribing updates the stats', async () => {
    const poll = await seedToday();
    const { page, errors } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await today.goto(t.site.url);

    await today.question.waitFor();
    expect(await today.question.textContent()).toBe(question);
    expect(await page.locator('.time-left').textContent()).toBe('Time left to vote: 10h 0m');
    expect(await today.results.count()).toBe(0); // no peeking before voting
    await expect.poll(() => today.stat('Your Votes').textContent()).toBe('0');
    expect(await today.stat('Total Polls').textContent()).toBe('1');

    await today.option('No').click();

    await today.subscribeModal.waitFor();
    await today.results.waitFor();
    expect(await page.locator('.pie-chart__legend').textContent()).toContain('NoYour vote40%');
    const email = page.getByLabel('Email address');
    await email.fill('  Pat.Teacher@Example.ORG ');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Subscribe' }).click();

    await today.toast('Subscribed! 🎉').waitFor();
    expect(await today.toast('Subscribed! 🎉').locator('.toast__description').textContent()).toBe(
      'Check your inbox and confirm your subscription to start receiving poll results.',
    );
    await today.subscribeModal.waitFor({ state: 'detached' });
    await expect.poll(() => today.stat('Your Votes').textContent()).toBe('1');
    expect(await today.stat('Day Streak').textContent()).toContain('1');

    // What the server stored, read straight from the database.
    const subscriber = await t.site.db.selectFrom('subscribers').selectAll().executeTakeFirstOrThrow();
    expect(subscriber).toMatchObject({ email: 'pat.teacher@example.org', source_poll_id: poll.id });
    const vote = await t.site.db
      .selectFrom('votes')
      .selectAll()
      .where('voter_email', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(vote).toMatchObject({ option_index: 1, voter_email: 'pat.teacher@example.org' });
    const remembered = await page.evaluate(() => Object.fromEntries(Object.entries(window.localStorage)));
    expect(remembered).toEqual({
      voterEmail: 'pat.teacher@example.org',
      emailSubscribed: 'true',
      emailModalSeen: 'true',
    });
    expect(errors).toEqual([]);
  });

  it('sends the stored e-mail only to the calls that attach it, never in an address or another body', async () => {
    await seedToday();
    await seedPoll(t.site.db, { question: 'Recess before lunch?', status: 'past', liveDate: '2026-11-20' });
    const { page } = await newVisitor(t.browser, t.site);
    const sent: { method: string; url: string; body: string }[] = [];
    page.on('request', (request) =>
      sent.push({ method: request.method(), url: request.url(), body: request.postData() ?? '' }),
    );
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.option('Yes').click();
    await today.subscribeModal.waitFor();
    await page.getByLabel('Email address').fill('pat.teacher@example.org');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await today.toast('Subscribed! 🎉').waitFor();

    // With the e-mail stored: a new page load, the half-minute refetch, and the other screens.
    const afterSubscribing = sent.length;
    await page.reload();
    await expect.poll(() => today.stat('Your Votes').textContent()).toBe('1');
    await page.clock.runFor(ACTIVE_POLL_REFETCH_MS);
    await page.getByRole('link', { name: 'Results' }).click();
    await page.getByRole('link', { name: 'Recess before lunch?' }).first().click();
    await page.getByRole('heading', { name: 'Recess before lunch?' }).waitFor();
    await page.goto(`${t.site.url}/faq`);
    const reads = sent.slice(afterSubscribing).map((request) => `${request.method} ${new URL(request.url).pathname}`);
    expect(reads).toEqual(expect.arrayContaining(['GET /api/polls/active', 'GET /api/stats']));

    const carrying = sent.filter((request) => /pat\.teacher/i.test(decodeURIComponent(request.url) + request.body));
    expect(carrying.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      expect.stringMatching(/^POST \/api\/polls\/\d+\/update-vote$/),
      'POST /api/subscribe',
    ]);
  });

  it('names the parent brand in the consent label when BRAND_NAME is set', async () => {
    await t.site.close();
    t.site = await startSite({ env: { BRAND_NAME: 'Acme Learning' } });
    await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.option('Yes').click();
    await today.subscribeModal.waitFor();
    expect(await page.locator('.subscribe-modal__consent').textContent()).toBe(
      'I agree to receive emails from Teacher Hot Take, Acme Learning and its affiliates. See our Privacy Policy (opens in a new tab).',
    );
  });

  it('checks the subscription form before sending: empty, malformed, no consent', async () => {
    await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.option('Yes').click();
    await today.subscribeModal.waitFor();

    await page.getByRole('button', { name: 'Subscribe' }).click();
    await today.toast('Email required').waitFor();
    expect(await today.toast('Email required').textContent()).toContain(
      'Please enter your email address to subscribe.',
    );

    await page.getByLabel('Email address').fill('pat@example');
    await page.getByLabel('Email address').press('Enter'); // Enter submits
    await today.toast('Invalid email format').waitFor();

    await page.getByLabel('Email address').fill('pat@example.org');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await today.toast('Terms agreement required').waitFor();
    expect(await today.toast('Terms agreement required').textContent()).toContain(
      'Please agree to our terms and conditions and privacy policy.',
    );
    expect(await t.site.db.selectFrom('subscribers').selectAll().execute()).toEqual([]);
  });

  it('says "already voted" when another tab of the same browser voted first, then shows the results', async () => {
    await seedToday();
    const first = await newVisitor(t.browser, t.site);
    const second = await first.context.newPage();
    await second.clock.install({ time: t.site.clock.now() });
    const firstTab = new TodayPage(first.page);
    const secondTab = new TodayPage(second);
    await firstTab.goto(t.site.url);
    await secondTab.goto(t.site.url);
    await secondTab.question.waitFor();
    // Let both tabs' apps settle before the first tab votes, or the second would already know of
    // that vote and show the results.
    await second.waitForLoadState('networkidle');
    await firstTab.page.waitForLoadState('networkidle');

    await firstTab.option('Yes').click();
    await firstTab.results.waitFor();
    await secondTab.option('No').click();

    const toast = secondTab.toast('Just a heads up!');
    await toast.waitFor();
    expect(await toast.textContent()).toContain("Just a heads up! You've already voted on this poll!");
    await secondTab.results.waitFor();
    const counted = await t.site.db.selectFrom('votes').select('option_index').execute();
    expect(counted.filter((v) => v.option_index === 1)).toHaveLength(1); // the seeded No only
  });

  it('never shows the invitation again after No Thanks', async () => {
    const poll = await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.option('Yes').click();
    await today.subscribeModal.waitFor();
    await page.getByRole('button', { name: 'No Thanks' }).click();
    await today.subscribeModal.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => window.localStorage.getItem('emailModalSeen'))).toBe('true');

    // The next day brings a new poll; voting on it does not bring the invitation back.
    await t.site.db.updateTable('polls').set({ status: 'past' }).where('id', '=', poll.id).execute();
    await seedPoll(t.site.db, {
      question: 'Is a four-day week good for students?',
      options: ['Yes', 'No'],
      liveDate: '2026-11-22',
    });
    await setTime(t.site, page, '2026-11-22', '09:00');
    // Each instance re-reads the active poll at least once a second; wait until this one has.
    await expect
      .poll(
        async () => ((await (await fetch(`${t.site.url}/api/polls/active`)).json()) as { question: string }).question,
        {
          timeout: 3000,
        },
      )
      .toBe('Is a four-day week good for students?');
    await page.reload();
    await today.option('No').click();
    await today.results.waitFor();
    expect(await today.subscribeModal.count()).toBe(0);
    expect(await t.site.db.selectFrom('subscribers').selectAll().execute()).toEqual([]);
  });

  it('can be done with the keyboard alone: vote, subscribe, and focus comes back', async () => {
    await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.question.waitFor();

    let focused = '';
    for (let i = 0; i < 12 && focused !== 'Depends on the grade'; i += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    }
    expect(focused).toBe('Depends on the grade');
    await page.keyboard.press('Enter');

    await today.subscribeModal.waitFor();
    // Focus moved into the dialog, onto the e-mail field.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    await page.keyboard.type('keys@example.org');
    await page.keyboard.press('Tab'); // daily, weekly or both: one stop, daily chosen
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space'); // the consent checkbox
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');

    await today.toast('Subscribed! 🎉').waitFor();
    await today.subscribeModal.waitFor({ state: 'detached' });
    // ... and back out to the poll card's heading.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('poll-heading');
    const stored = await t.site.db.selectFrom('subscribers').select('email').executeTakeFirstOrThrow();
    expect(stored.email).toBe('keys@example.org');
  });
});

describe('the countdown', () => {
  it('counts down to the close before 20:00, and to the next poll after it, in New York time', async () => {
    await seedToday();
    await setTime(t.site, (await newVisitor(t.browser, t.site)).page, '2026-11-21', '19:58');
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.question.waitFor();
    expect(await page.locator('.time-left').textContent()).toBe('Time left to vote: 2m');

    await today.option('Yes').click();
    await today.results.waitFor();
    expect(await page.locator('.phase-countdown').textContent()).toBe('Time Left to Vote: 2m');

    // Past the close, the label turns at the next minute's refresh and counts down to midnight.
    await setTime(t.site, page, '2026-11-21', '20:00');
    await page.clock.runFor(60_000);
    await expect
      .poll(() => page.locator('.phase-countdown').textContent())
      .toMatch(/^Results live! Next poll in: (4h 0m|3h 59m)$/);
  });

  it('shows the results to everyone after 20:00, with no buttons to vote', async () => {
    await seedToday();
    t.site.clock.set(new Date('2026-11-22T01:30:00Z')); // 20:30 in New York
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.results.waitFor();
    expect(await page.locator('.phase-countdown').textContent()).toBe('Results live! Next poll in: 3h 30m');
    expect(await page.locator('.poll-card__option').count()).toBe(0);
  });
});

describe('sharing', () => {
  it('offers five networks and a link that copies, with "Copied!" for two seconds', async () => {
    const poll = await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.question.waitFor();

    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this poll' });
    await dialog.waitFor();
    const link = `${t.site.publicUrl}/poll-${poll.pollNumber}`;
    const networks = await dialog
      .locator('.share-dialog__network')
      .evaluateAll((links) =>
        links.map((a) => [a.textContent.replace(' (opens in a new tab)', ''), (a as HTMLAnchorElement).href]),
      );
    expect(networks.map(([name]) => name)).toEqual(['Facebook', 'X', 'Pinterest', 'Instagram', 'TikTok']);
    for (const [, href] of networks.slice(0, 3)) {
      expect(href).toContain(encodeURIComponent(link));
      expect(href).toContain(encodeURIComponent(question));
    }
    expect(networks.slice(3).map(([, href]) => href)).toEqual([
      'https://www.instagram.com/',
      'https://www.tiktok.com/',
    ]);

    await dialog.getByRole('button', { name: 'Copy Link' }).click();
    await dialog.getByRole('button', { name: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await page.clock.runFor(2000);
    await dialog.getByRole('button', { name: 'Copy Link' }).waitFor();

    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await dialog.waitFor();
    await page.mouse.click(5, 5); // outside the dialog
    await dialog.waitFor({ state: 'detached' });
  });

  it('downloads the chart as a PNG at twice the size when the device cannot share files', async () => {
    await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.option('Yes').click();
    await today.subscribeModal.waitFor();
    await page.getByRole('button', { name: 'No Thanks' }).click();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Share Chart Image' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^hot-take-poll-1-\d{8}-\d{6}\.png$/);
    const png = fs.readFileSync(await file.path());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1200); // 600 CSS pixels at scale 2
    await today.toast('Pie chart image downloaded!').waitFor();
  });
});

/**
 * A device share sheet whose outcome a test sets: `window.__shareOutcome` is the name of the
 * DOMException it rejects with (AbortError when the visitor closes the sheet), and
 * `window.__shares` counts the calls. With `clipboardFails`, copying is refused too.
 */
async function stubDeviceShare(
  page: Page,
  { outcome, clipboardFails = false }: { outcome: string; clipboardFails?: boolean },
) {
  await page.addInitScript(
    ({ outcome, clipboardFails }) => {
      const state = window as unknown as { __shareOutcome: string; __shares: number };
      state.__shareOutcome = outcome;
      state.__shares = 0;
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: () => {
          state.__shares += 1;
          return Promise.reject(new DOMException('The share did not happen.', state.__shareOutcome));
        },
      });
      if (clipboardFails) {
        Object.defineProperty(navigator.clipboard, 'writeText', {
          configurable: true,
          value: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
        });
      }
    },
    { outcome, clipboardFails },
  );
}

const setShareOutcome = (page: Page, outcome: string) =>
  page.evaluate((name) => ((window as unknown as { __shareOutcome: string }).__shareOutcome = name), outcome);
const shareCalls = (page: Page) => page.evaluate(() => (window as unknown as { __shares: number }).__shares);

describe('sharing through the device', () => {
  it('says the share failed, not a copy, when the share sheet fails; a closed sheet says nothing', async () => {
    await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    await recordToasts(page);
    await stubDeviceShare(page, { outcome: 'NotAllowedError' });
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.option('Yes').click();
    await today.subscribeModal.waitFor();
    await page.getByRole('button', { name: 'No Thanks' }).click();
    await today.subscribeModal.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const shareViaApps = page
      .getByRole('dialog', { name: 'Share this poll' })
      .getByRole('button', { name: 'Share via apps' });

    await shareViaApps.click();
    await today.toast('Failed to share link. Please try again.').waitFor();
    // Closing the sheet is not a failure: no toast, until the next real failure.
    await setShareOutcome(page, 'AbortError');
    await shareViaApps.click();
    await expect.poll(() => shareCalls(page)).toBe(2);
    await setShareOutcome(page, 'NotAllowedError');
    await shareViaApps.click();
    await expect.poll(() => shareCalls(page)).toBe(3);
    await expect
      .poll(() => toastsShown(page))
      .toEqual(['Failed to share link. Please try again.', 'Failed to share link. Please try again.']);
  });

  it('on a closed poll’s page, copies the link when the sheet fails, and says which failed when both do', async () => {
    await seedPoll(t.site.db, {
      question: 'Should cursive be taught?',
      status: 'past',
      liveDate: '2026-11-20',
      votes: [3, 1, 0],
    });
    const copying = await newVisitor(t.browser, t.site);
    await stubDeviceShare(copying.page, { outcome: 'NotAllowedError' });
    await copying.page.goto(`${t.site.url}/poll-1`);
    await copying.page.getByRole('button', { name: 'Share' }).click();
    await copying.page.getByRole('button', { name: 'Copied!' }).waitFor();
    expect(await copying.page.evaluate(() => navigator.clipboard.readText())).toBe(`${t.site.publicUrl}/poll-1`);

    const { page } = await newVisitor(t.browser, t.site);
    await stubDeviceShare(page, { outcome: 'NotAllowedError', clipboardFails: true });
    await page.goto(`${t.site.url}/poll-1`);
    await page.getByRole('button', { name: 'Share' }).click();
    await new TodayPage(page).toast('Failed to share link. Please try again.').waitFor();
  });

  it('on a closed poll’s page, says nothing when the visitor closes the share sheet', async () => {
    await seedPoll(t.site.db, {
      question: 'Should cursive be taught?',
      status: 'past',
      liveDate: '2026-11-20',
      votes: [3, 1, 0],
    });
    const { page } = await newVisitor(t.browser, t.site);
    await recordToasts(page);
    await stubDeviceShare(page, { outcome: 'AbortError', clipboardFails: true });
    await page.goto(`${t.site.url}/poll-1`);
    await page.getByRole('button', { name: 'Share' }).click();
    await expect.poll(() => shareCalls(page)).toBe(1);
    // The next press fails for real and shows its toast; the closed sheet showed none before it.
    await setShareOutcome(page, 'NotAllowedError');
    await page.getByRole('button', { name: 'Share' }).click();
    await new TodayPage(page).toast('Failed to share link. Please try again.').waitFor();
    expect(await toastsShown(page)).toEqual(['Failed to share link. Please try again.']);
    expect(await page.getByRole('button', { name: 'Share' }).count()).toBe(1); // never "Copied!"
  });
});
