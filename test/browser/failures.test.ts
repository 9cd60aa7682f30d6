/**
 * When a call fails, in Chromium: a request that never reaches the site (Playwright aborts it
 * at the network level) or an answer that is not the site's (a proxy's error page) shows the
 * spec's sentence for that action; a refusal from the server shows the server's own words.
 */
import { describe, expect, it } from 'vitest';
import { seedPoll } from '../../src/server/testing/fixtures.js';
import { TodayPage } from './pages.js';
import { browserTest, expectAccessible, newVisitor, saveScreenshots } from './support.js';

const t = browserTest();

const seedToday = () =>
  seedPoll(t.site.db, {
    question: 'Should homework be banned in elementary school?',
    options: ['Yes', 'No', 'Depends'],
    votes: [3, 1, 0],
  });

const countVotes = async () => (await t.site.db.selectFrom('votes').select('id').execute()).length;

/** A proxy or gateway answering instead of the site. */
const BAD_GATEWAY_PAGE = {
  status: 502,
  contentType: 'text/html',
  body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
};

describe('voting', () => {
  it('says "Failed to record your vote. Please try again." when the vote never reaches the server', async () => {
    await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await page.route('**/api/polls/*/vote', (route) => route.abort('internetdisconnected'));
    await today.goto(t.site.url);
    await today.option('No').click();

    const toast = today.toast('Just a heads up!');
    await toast.waitFor();
    expect(await toast.locator('.toast__description').textContent()).toBe(
      'Failed to record your vote. Please try again.',
    );
    expect(await countVotes()).toBe(4); // the seeded ones only
    // The voting card stays, ready for another try.
    await today.option('No').waitFor();
    expect(await today.option('No').isEnabled()).toBe(true);
  });

  it('says the same when a proxy answers with its own error page', async () => {
    await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await page.route('**/api/polls/*/vote', (route) => route.fulfill(BAD_GATEWAY_PAGE));
    await today.goto(t.site.url);
    await today.option('Yes').click();

    const toast = today.toast('Just a heads up!');
    await toast.waitFor();
    expect(await toast.locator('.toast__description').textContent()).toBe(
      'Failed to record your vote. Please try again.',
    );
  });
});

describe('trying again', () => {
  it('offers "Try again" on a vote lost to the network, which sends the same vote once it is back', async () => {
    await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.question.waitFor();
    // The whole network drops: the vote and the reads after it fail.
    await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await today.option('No').click();

    const toast = today.toast('Just a heads up!');
    await toast.waitFor();
    const tryAgain = toast.getByRole('button', { name: 'Try again' });
    await tryAgain.waitFor();
    // The card keeps the poll it has rather than turning into an error.
    await page.getByRole('button', { name: 'Yes' }).waitFor();
    expect(await page.getByText('Failed to fetch active poll').count()).toBe(0);

    await page.unroute('**/api/**');
    await tryAgain.click();
    await today.subscribeModal.waitFor();
    await today.results.waitFor();
    const counted = await t.site.db.selectFrom('votes').select('option_index').execute();
    expect(counted.filter((v) => v.option_index === 1)).toHaveLength(2); // the seeded No and this one
    expect(counted).toHaveLength(5);
  });

  it('offers "Try again" on a suggestion lost to the network, not on one the rules refuse', async () => {
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await page.goto(`${t.site.url}/?view=suggest`);
    await page.getByLabel('Your poll question').fill('Are snow days outdated?');
    await page.getByLabel('Option 1').fill('Yes');
    await page.getByLabel('Option 2').fill('yes');
    await page.getByRole('button', { name: 'Submit Suggestion' }).click();
    const failed = today.toast('Oops! Something went wrong');
    await failed.waitFor();
    expect(await failed.locator('.toast__description').textContent()).toBe('The option "yes" is listed twice.');
    expect(await failed.getByRole('button', { name: 'Try again' }).count()).toBe(0);

    await page.getByLabel('Option 2').fill('No');
    await page.route('**/api/poll-suggestions', (route) => route.abort('internetdisconnected'), { times: 1 });
    await page.getByRole('button', { name: 'Submit Suggestion' }).click();
    await expect
      .poll(() => failed.locator('.toast__description').textContent())
      .toBe('Failed to submit suggestion. Please try again.');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await today.toast('Suggestion submitted!').waitFor();
    const stored = await t.site.db.selectFrom('poll_suggestions').select(['question', 'options']).execute();
    expect(stored).toEqual([{ question: 'Are snow days outdated?', options: '["Yes","No"]' }]);
  });
});

describe('suggesting a poll', () => {
  async function fillSuggestion(page: TodayPage['page'], options: [string, string]) {
    await page.goto(`${t.site.url}/?view=suggest`);
    await page.getByLabel('Your poll question').fill('Should schools start later for teenagers?');
    await page.getByLabel('Option 1').fill(options[0]);
    await page.getByLabel('Option 2').fill(options[1]);
  }

  it('says "Failed to submit suggestion. Please try again." when the network or a proxy fails', async () => {
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await page.route('**/api/poll-suggestions', (route) => route.abort('connectionreset'), { times: 1 });
    await fillSuggestion(page, ['Yes', 'No']);
    await page.getByRole('button', { name: 'Submit Suggestion' }).click();
    const toast = today.toast('Oops! Something went wrong');
    await toast.waitFor();
    expect(await toast.locator('.toast__description').textContent()).toBe(
      'Failed to submit suggestion. Please try again.',
    );

    await toast.getByRole('button', { name: 'Dismiss notification' }).click();
    await toast.waitFor({ state: 'detached' });
    await page.route('**/api/poll-suggestions', (route) => route.fulfill(BAD_GATEWAY_PAGE), { times: 1 });
    await page.getByRole('button', { name: 'Submit Suggestion' }).click();
    await toast.waitFor();
    expect(await toast.locator('.toast__description').textContent()).toBe(
      'Failed to submit suggestion. Please try again.',
    );
    expect(await t.site.db.selectFrom('poll_suggestions').selectAll().execute()).toEqual([]);
    // What was typed is still there.
    expect(await page.getByLabel('Your poll question').inputValue()).toBe('Should schools start later for teenagers?');
  });

  it('refuses a repeated option before sending, in the server’s words', async () => {
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/poll-suggestions')) sent.push(request.method());
    });
    await fillSuggestion(page, ['Yes', 'yes']);
    await page.getByRole('button', { name: 'Submit Suggestion' }).click();
    const toast = today.toast('Oops! Something went wrong');
    await toast.waitFor();
    expect(await toast.locator('.toast__description').textContent()).toBe('The option "yes" is listed twice.');
    expect(sent).toEqual([]);
  });

  it('shows the server’s own words when it refuses the suggestion: a network that has sent its hour’s share', async () => {
    // Colleagues on the same address (this machine's) have sent as many as the site takes in an hour.
    for (let n = 0; n < t.site.config.suggestLimitPerHour; n += 1) {
      const response = await fetch(`${t.site.url}/api/poll-suggestions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: `Idea ${n}?`, options: ['Yes', 'No'] }),
      });
      expect(response.status).toBe(201);
    }
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    await fillSuggestion(page, ['Yes', 'No']);
    await page.getByRole('button', { name: 'Submit Suggestion' }).click();
    const toast = today.toast('Oops! Something went wrong');
    await toast.waitFor();
    expect(await toast.locator('.toast__description').textContent()).toBe(
      'Too many suggestions from your network in the last hour. Please try again later.',
    );
    expect(await toast.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    expect(await page.getByLabel('Your poll question').inputValue()).toBe('Should schools start later for teenagers?');
    const stored = await t.site.db.selectFrom('poll_suggestions').select('id').execute();
    expect(stored).toHaveLength(t.site.config.suggestLimitPerHour);
  });

  it('says "Failed to submit suggestion. Please try again." when the form’s rules cannot be loaded, and tries again', async () => {
    const { page } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    // The form's rules are a script of their own, fetched when the form shows: the network drops first.
    await page.route('**/assets/schemas-*.js', (route) => route.abort('internetdisconnected'));
    await fillSuggestion(page, ['Yes', 'No']);
    await page.getByRole('button', { name: 'Submit Suggestion' }).click();
    const toast = today.toast('Oops! Something went wrong');
    await toast.waitFor();
    expect(await toast.locator('.toast__description').textContent()).toBe(
      'Failed to submit suggestion. Please try again.',
    );
    expect(await t.site.db.selectFrom('poll_suggestions').selectAll().execute()).toEqual([]);

    await page.unroute('**/assets/schemas-*.js');
    await toast.getByRole('button', { name: 'Try again' }).click();
    await today.toast('Suggestion submitted!').waitFor();
    expect(await t.site.db.selectFrom('poll_suggestions').select('question').execute()).toEqual([
      { question: 'Should schools start later for teenagers?' },
    ]);
  });
});

describe('subscribing', () => {
  async function voteAndFill(email: string) {
    const visitor = await newVisitor(t.browser, t.site);
    const today = new TodayPage(visitor.page);
    await today.goto(t.site.url);
    await today.option('Yes').click();
    await today.subscribeModal.waitFor();
    await visitor.page.getByLabel('Email address').fill(email);
    await visitor.page.getByRole('checkbox').check();
    return { ...visitor, today, subscribe: () => visitor.page.getByRole('button', { name: 'Subscribe' }).click() };
  }

  it('says "Could not subscribe. Please try again." when the network fails, and keeps the invitation open', async () => {
    await seedToday();
    const { page, today, subscribe } = await voteAndFill('pat@example.org');
    await page.route('**/api/polls/*/update-vote', (route) => route.abort('internetdisconnected'));
    await subscribe();
    const toast = today.toast('Subscription failed');
    await toast.waitFor();
    expect(await toast.locator('.toast__description').textContent()).toBe('Could not subscribe. Please try again.');
    expect(await today.subscribeModal.isVisible()).toBe(true);
    expect(await t.site.db.selectFrom('subscribers').selectAll().execute()).toEqual([]);
  });

  it('shows the server’s words for a refusal: too many subscriptions, an e-mail already on the vote', async () => {
    await seedToday();
    const { page, today, subscribe } = await voteAndFill('pat@example.org');
    const toast = today.toast('Subscription failed');

    await page.route(
      '**/api/subscribe',
      (route) =>
        route.fulfill({
          status: 429,
          json: { message: 'Too many new subscriptions from your network in the last hour. Please try again later.' },
        }),
      { times: 1 },
    );
    await subscribe();
    await toast.waitFor();
    expect(await toast.locator('.toast__description').textContent()).toBe(
      'Too many new subscriptions from your network in the last hour. Please try again later.',
    );

    await page.route(
      '**/api/polls/*/update-vote',
      (route) =>
        route.fulfill({
          status: 409,
          json: { message: "Your vote already has an email address, and it can't be changed." },
        }),
      { times: 1 },
    );
    await subscribe();
    await expect
      .poll(() => toast.locator('.toast__description').textContent())
      .toBe("Your vote already has an email address, and it can't be changed.");
  });

  it('says "This email has already voted on this poll." for an address another browser voted with', async () => {
    await seedToday();
    const first = await voteAndFill('pat@example.org');
    await first.subscribe();
    await first.today.toast('Subscribed! 🎉').waitFor();

    const second = await voteAndFill('pat@example.org');
    await second.subscribe();
    const toast = second.today.toast('Subscription failed');
    await toast.waitFor();
    expect(await toast.locator('.toast__description').textContent()).toBe('This email has already voted on this poll.');
  });
});

describe('an e-mail this browser remembers that the server cannot use', () => {
  it('still shows today’s poll and the stats, as if there were none', async () => {
    await seedToday();
    const { page } = await newVisitor(t.browser, t.site);
    // Left over from before addresses were checked.
    await page.addInitScript(() => localStorage.setItem('voterEmail', 'x<victim@school.example>'));
    const reads: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/(polls\/active|stats)/.test(request.url()))
        reads.push(`${request.method()} ${request.url()} ${request.postData() ?? ''}`);
    });
    const today = new TodayPage(page);
    await today.goto(t.site.url);
    await today.question.waitFor();
    await expect.poll(() => today.stat('Total Polls').textContent()).toBe('1');
    expect(await today.stat('Your Votes').textContent()).toBe('0');
    expect(await page.getByText('Failed to fetch active poll').count()).toBe(0);
    expect(await page.getByText('Failed to fetch stats').count()).toBe(0);
    // Both reads went out, as plain GETs without it.
    expect(reads.some((read) => read.includes('/api/stats'))).toBe(true);
    expect(reads.filter((read) => !read.startsWith('GET ') || read.includes('victim'))).toEqual([]);
    await today.option('Yes').click();
    await today.results.waitFor();
  });
});

describe('the stats strip', () => {
  it('says "Failed to fetch stats" when they cannot be read, in the space the numbers take', async () => {
    await seedToday();
    const normal = await newVisitor(t.browser, t.site);
    await normal.page.goto(t.site.url);
    await expect.poll(() => new TodayPage(normal.page).stat('Total Polls').textContent()).toBe('1');
    const { height } = (await normal.page.locator('.stats-strip').boundingBox())!;

    const { page } = await newVisitor(t.browser, t.site);
    await page.route('**/api/stats', (route) => route.abort('internetdisconnected'));
    await page.goto(t.site.url);
    const strip = page.locator('.stats-strip');
    const alert = strip.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Failed to fetch stats');
    expect((await strip.boundingBox())!.height).toBe(height);
    await expectAccessible(page);
    await saveScreenshots(page, 'today-stats-failed');

    // Once the network is back, "Try again" reads them.
    await page.unroute('**/api/stats');
    await strip.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => new TodayPage(page).stat('Total Polls').textContent()).toBe('1');
    expect(await alert.count()).toBe(0);
    expect((await strip.boundingBox())!.height).toBe(height);
  });
});
