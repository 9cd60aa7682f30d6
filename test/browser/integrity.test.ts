/** Staff review a stuffed burst in Chromium: they see it, set it aside with a reason, and restore it. */
import { describe, expect, it } from 'vitest';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import {
  flagBucket,
  insertReviewVotes,
  keptTallies,
  type ReviewVote,
} from '../../src/server/testing/review-fixtures.js';
import { AdminPanel, IntegrityReview } from './pages.js';
import { browserTest, expectAccessible, LAPTOP, newVisitor, saveScreenshots } from './support.js';

const t = browserTest();
const STUFFER = '3f9a2c0011223344';
const QUESTION = 'Should phones be locked away all day?';

/**
 * Today's poll (10:00 in New York, 15:00 UTC): 30 teachers of a school between 13:00 and
 * 13:30 UTC, 20 "Yes" and 10 "No"; then one network's 60 votes for "No" in a minute at 14:00,
 * no ballots, fresh cookies: 50 counted before the detector challenged it, 10 held.
 */
async function seedStuffedPoll() {
  const poll = await seedPoll(t.site.db, { question: QUESTION, options: ['Yes', 'No'] });
  const at = (start: string, seconds: number) =>
    new Date(Date.parse(`2026-11-21T${start}Z`) + seconds * 1000).toISOString();
  const school: ReviewVote[] = Array.from({ length: 30 }, (_, i) => ({
    pollId: poll.id,
    optionIndex: i < 20 ? 0 : 1,
    createdAt: at('13:00:00', i * 60),
    bucket: 'a1b2c3d4e5f60718',
    profile: { role: 'classroom-teacher' },
  }));
  const stuffer: ReviewVote[] = Array.from({ length: 60 }, (_, i) => ({
    pollId: poll.id,
    optionIndex: 1,
    createdAt: at('14:00:00', i),
    status: i < 50 ? 'counted' : 'held',
    bucket: STUFFER,
    pageMs: null,
    cookieAgeS: null,
  }));
  await insertReviewVotes(t.site.db, [...school, ...stuffer]);
  await flagBucket(t.site.db, {
    pollId: poll.id,
    bucket: STUFFER,
    state: 'challenge',
    firstFlaggedAt: at('14:00:30', 0),
    challengedSince: at('14:00:50', 0),
    challengedUntil: at('14:31:00', 0),
    updatedAt: at('14:00:59', 0),
    reasons: 'volume,skew,no-ballot,regular',
  });
  return poll;
}

describe('the integrity review', () => {
  it('shows a stuffed burst; staff discount it with a reason, the results change, and a restore brings them back', async () => {
    const poll = await seedStuffedPoll();
    const before = await keptTallies(t.site.db, poll.id);
    expect(before.options).toEqual([20, 60]);

    const { page, errors } = await newVisitor(t.browser, t.site, LAPTOP);
    await page.goto(`${t.site.url}/admin/polls`);
    const admin = new AdminPanel(page);
    await admin.signIn();
    const review = new IntegrityReview(admin, QUESTION);
    await review.open();
    expect(new URL(page.url()).pathname).toBe(`/admin/polls/${poll.pollNumber}/integrity`);

    const burst = review.burst('NET-3F9A2C');
    await burst.getByText('Challenged', { exact: true }).waitFor();
    expect(await burst.locator('.integrity-burst__counts').textContent()).toBe(
      '60 votes: 50 counted, 10 held, 0 set aside',
    );
    expect(await review.results(burst, 'Results now')).toEqual(['25% · 20 votes', '75% · 60 votes']);
    expect(await review.results(burst, 'Without this burst')).toEqual(['67% · 20 votes', '33% · 10 votes']);
    const networks = review.item.getByRole('region', { name: 'Networks by votes' });
    expect(await networks.getByRole('row', { name: /NET-3F9A2C/ }).textContent()).toContain('No 100% (33%)');
    await expectAccessible(page);
    await saveScreenshots(page, 'admin-integrity');

    // Discount it: a reason is required.
    await burst.getByRole('button', { name: 'Discount this burst…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set aside votes from NET-3F9A2C?' });
    await dialog.getByText('Its 50 votes counted in this time').waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Set votes aside' }).click();
    expect(await dialog.getByRole('alert').textContent()).toBe('Please give a reason for setting these votes aside.');
    await dialog.getByLabel('Reason').fill('60 votes in a minute for "No" from one network, no ballots');
    await dialog.getByRole('button', { name: 'Set votes aside' }).click();
    await admin.toast('50 votes set aside.').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The tallies, the preview and the panel all follow.
    await burst.locator('.integrity-burst__counts', { hasText: '0 counted, 10 held, 50 set aside' }).waitFor();
    expect(await review.results(burst, 'Results now')).toEqual(['67% · 20 votes', '33% · 10 votes']);
    expect(await keptTallies(t.site.db, poll.id)).toMatchObject({ options: [20, 10], setAside: 60 });
    await review.item.locator('.admin-item__meta', { hasText: '· 30 votes' }).waitFor();
    const discount = review.logRow(/Discount #\d+: NET-3F9A2C/);
    expect(await discount.textContent()).toContain('60 votes in a minute for "No" from one network, no ballots');
    // The log names who acted: the signed-in owner (named after ADMIN_EMAIL in tests).
    expect(await discount.textContent()).toContain('owner');

    // Restore it.
    await discount.getByRole('button', { name: /Restore discount/ }).click();
    await admin.toast('50 votes counted again.').waitFor();
    await review.logRow(/Restored discount #\d+: NET-3F9A2C/).waitFor();
    await discount.getByText(/Restored \(#\d+\)/).waitFor();
    await burst.locator('.integrity-burst__counts', { hasText: '50 counted, 10 held, 0 set aside' }).waitFor();
    expect(await review.results(burst, 'Results now')).toEqual(['25% · 20 votes', '75% · 60 votes']);
    expect(await keptTallies(t.site.db, poll.id)).toEqual(before);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    // Many steps, each waiting on the server and Chromium: on a busy 2-core machine past 30 s.
  }, 60_000);

  it('turns the challenge for everyone on and off, and says so in the log', async () => {
    const poll = await seedStuffedPoll();
    const { page, errors } = await newVisitor(t.browser, t.site, LAPTOP);
    // A link straight to the review: signing in opens it there.
    await page.goto(`${t.site.url}/admin/polls/${poll.pollNumber}/integrity`);
    const admin = new AdminPanel(page);
    await admin.signIn();
    const review = new IntegrityReview(admin, QUESTION);
    await review.item.getByRole('heading', { name: 'Votes per minute' }).waitFor();
    const toggle = review.item.getByRole('switch', { name: /Ask every vote on this poll for a proof of work/ });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await admin.toast('Every vote on this poll now needs a proof of work.').waitFor();
    await review.logRow('Challenge for every vote on').waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await admin.toast('Only challenged networks need a proof of work now.').waitFor();
    await review.logRow('Challenge for every vote off').waitFor();
    expect(errors).toEqual([]);
  });
});
