/**
 * Issue 37 item 2 in Chromium: a first-time voter on a challenged network is asked for a level-2
 * proof of work, longer to solve than the page waits (the site's level-0 work is made large here,
 * as a low-end phone would find level 2). The vote goes first and is recorded (held, and the page
 * says so, with no results); the proof follows when solved and counts the vote, no staff involved;
 * then the results appear.
 */
import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { VOTE_NOTICES } from '../../src/shared/ssr.js';
import { COUNTED_PROOF_LEVEL } from '../../src/server/integrity/detector.js';
import { createIntegrity } from '../../src/server/integrity/integrity.service.js';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { decodeProof } from '../../src/server/testing/proof-of-work-solver.js';
import { flagBucket } from '../../src/server/testing/review-fixtures.js';
import { TodayPage } from './pages.js';
import { browserTest, newVisitor } from './support.js';

/** Level 2 is then 25,000–50,000 PBKDF2 attempts: seconds in Chromium here, never under 1.5 s. */
const t = browserTest({ proofOfWorkBaseMaxNumber: 12_500 });

describe('a proof of work that takes longer than the page waits', () => {
  it('records the vote first, then counts it when the proof arrives, and shows the results', async () => {
    const poll = await seedPoll(t.site.db, { options: ['Yes', 'No'], votes: [3, 1] });
    // The detector challenged this browser's network (127.0.0.1's /24) a minute ago.
    const { db, clock, config } = t.site;
    const bucket = await createIntegrity({ db, clock, site: config.site }).bucketOf('127.0.0.1');
    const minuteAgo = new Date(clock.now().getTime() - 60_000).toISOString();
    await flagBucket(db, {
      pollId: poll.id,
      bucket,
      state: 'challenge',
      firstFlaggedAt: minuteAgo,
      challengedSince: minuteAgo,
      challengedUntil: new Date(clock.now().getTime() + 30 * 60_000).toISOString(),
      updatedAt: minuteAgo,
      reasons: 'first-time',
    });

    const { page, errors } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    const notice = page.locator('.poll-card__notice');
    const events: string[] = [];
    const sent: Request[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/polls/')) sent.push(request);
    });
    // The proof's post waits until the page has shown the vote recorded: what the voter saw before it counted.
    await page.route('**/api/polls/*/vote/proof', async (route) => {
      await notice.filter({ hasText: VOTE_NOTICES.held }).waitFor();
      events.push(`held shown; results ${await today.results.count()}`);
      await route.continue();
      events.push('proof sent');
    });

    await today.goto(t.site.url);
    await today.option('No').click();
    await today.results.waitFor({ timeout: 120_000 });
    events.push('results shown');
    expect(events).toEqual(['held shown; results 0', 'proof sent', 'results shown']);

    const calls = sent.map((request) => `${request.method()} ${new URL(request.url()).pathname}`);
    expect(calls).toEqual([
      `GET /api/polls/${poll.id}/ballot`,
      `GET /api/polls/${poll.id}/proof-of-work`,
      `POST /api/polls/${poll.id}/vote`,
      'GET /api/polls/active',
      `POST /api/polls/${poll.id}/vote/proof`,
      'GET /api/polls/active',
    ]);
    const [vote, proofPost] = sent.filter((request) => request.method() === 'POST');
    // The vote went without its proof (the page waited 1.5 s), and was held.
    expect(vote?.postDataJSON()).toEqual({ optionIndex: 1, voterEmail: '', ballot: expect.any(String) as string });
    expect(await (await vote?.response())?.json()).toMatchObject({ message: VOTE_NOTICES.held });
    const { proof } = proofPost?.postDataJSON() as { proof: string };
    expect(decodeProof(proof).challenge.parameters.data).toMatchObject({ poll: poll.id, level: COUNTED_PROOF_LEVEL });
    expect((await proofPost?.response())?.status()).toBe(200);

    // Counted by its proof: no staff action, no release by the site.
    const votes = await db.selectFrom('votes').select('status').where('bucket', '=', bucket).execute();
    expect(votes).toEqual([{ status: 'counted' }]);
    expect(await db.selectFrom('integrity_actions').select('id').execute()).toEqual([]);
    expect(await page.locator('.pie-chart__legend').textContent()).toContain('NoYour vote40%');
    expect(errors).toEqual([]);
  }, 180_000);
});
