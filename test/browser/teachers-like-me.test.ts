/**
 * Teachers like me, as a teacher uses it in Chromium: describing oneself after a vote (or not),
 * the breakdowns by group after the close and on a past poll, a question's earlier runs,
 * keyboard only, and forgetting this browser.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../src/shared/profile.js';
import { seedPoll, seedProfiledVotes } from '../../src/server/testing/fixtures.js';
import { findPollById, linkToEarlierRun } from '../../src/server/polls/polls.repository.js';
import { AdminPanel, TeachersLikeMe, TodayPage } from './pages.js';
import { browserTest, expectAccessible, LAPTOP, newVisitor, saveScreenshots, setTime } from './support.js';

// Every draw in the middle: each breakdown count is published as its nearest multiple of 5.
vi.mock('../../src/server/breakdowns/rounding-draw.js', () => ({ roundingDraw: () => 0.5 }));

const t = browserTest();

const ROUNDED =
  'Numbers by group are rounded to a multiple of 5, at random, once, when voting closes, so they may not add up. Why?';
const OPENS = 'Breakdowns by role, grade and region open when voting closes at 8:00 PM Eastern Time.';

/** Today's poll with 28 votes from teachers who described themselves (or not). */
async function seedToday() {
  const poll = await seedPoll(t.site.db, { question: 'Should phones be locked away all day?', options: ['Yes', 'No'] });
  await seedProfiledVotes(t.site.db, poll, [
    { profile: { role: 'classroom-teacher', gradeBand: 'high' }, votes: [9, 3] },
    { profile: { role: 'school-leader' }, votes: [2, 8] },
    { profile: { role: 'support-staff' }, votes: [4, 0] }, // under 10: withheld, and so are the leaders
    { profile: {}, votes: [0, 2] },
  ]);
  return poll;
}

/** Votes on today's card and closes the subscribe invitation. */
async function vote(page: Page, option: string) {
  const today = new TodayPage(page);
  await today.goto(t.site.url);
  await today.option(option).click();
  await today.subscribeModal.waitFor();
  await page.getByRole('button', { name: 'No Thanks' }).click();
  await today.subscribeModal.waitFor({ state: 'detached' });
  await today.results.waitFor();
}

/** This browser's profile, as the server has it. */
async function profileOf(page: Page): Promise<Profile> {
  const response = await page.request.get(`${t.site.url}/api/me/profile`);
  return (await response.json()) as Profile;
}

/** Moves both clocks to 20:00 and waits until the server's copy of today's poll has closed. */
async function closeVoting(page: Page) {
  await setTime(t.site, page, '2026-11-21', '20:00');
  await expect
    .poll(
      async () =>
        ((await (await fetch(`${t.site.url}/api/polls/active`)).json()) as { votingOpen: boolean }).votingOpen,
      { timeout: 5000 },
    )
    .toBe(false);
}

/** Presses Tab until the focused element passes `test` (at most `limit` times); says what has focus. */
async function tabTo(page: Page, test: (element: Element) => boolean, limit = 30): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(`(${test.toString()})(document.activeElement)`)) return;
  }
  throw new Error(`Tab never reached it; focus is on ${await page.evaluate(() => document.activeElement?.outerHTML)}`);
}

describe('after voting on today’s poll', () => {
  it('invites the voter to describe themselves, and after the close marks their group "Teachers like you"', async () => {
    await seedToday();
    const { page, errors } = await newVisitor(t.browser, t.site);
    const me = new TeachersLikeMe(page);
    await vote(page, 'Yes');

    // Before the close: when the breakdowns open, and the invitation; no breakdown.
    await me.invitation.waitFor();
    expect(await me.opensNote.textContent()).toBe(OPENS);
    expect(await me.section.count()).toBe(0);
    expect((await page.request.get(`${t.site.url}/api/polls/1/breakdown`)).status()).toBe(403);
    await expectAccessible(page);
    await saveScreenshots(page, 'profile-invitation');

    // Save with nothing chosen says what to do, and sends nothing.
    await me.invitation.getByRole('button', { name: 'Save' }).click();
    expect(await me.invitation.getByRole('alert').textContent()).toBe('Choose at least one answer, or press Not now.');
    await me.chip('Your role', 'Classroom teacher').check();
    await me.chip('Grade level you teach', 'High (9–12)').check();
    expect(await me.chip('Your role', 'School leader').isChecked()).toBe(false); // one answer a group
    await saveScreenshots(page, 'profile-invitation-answered');
    await me.invitation.getByRole('button', { name: 'Save' }).click();

    await me.thanks.waitFor();
    expect(await me.thanks.textContent()).toBe('Thank you! Your vote will count in the breakdowns when they open.');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('profile-invitation__thanks');
    expect(await me.invitation.count()).toBe(0);
    expect(await profileOf(page)).toEqual({
      role: 'classroom-teacher',
      gradeBand: 'high',
      region: null,
      experience: null,
    });
    await expectAccessible(page);

    // After the close, the breakdowns, with this vote counted in this teacher's groups.
    await closeVoting(page);
    await page.reload();
    await me.section.waitFor();
    expect(await me.view('Everyone').isChecked()).toBe(true);
    expect(await me.groupNames()).toEqual(['Everyone · 29 votes']);
    expect(await me.sample.textContent()).toBe('A self-selected sample of 29 teachers; the bars are not weighted.');

    await me.view('Role').check();
    await me.group('Classroom teacher').waitFor();
    // The school leaders are withheld too: everyone less the two groups would give away the 6 others.
    // Every count is rounded to 5 (here each to its nearest): 13 votes, 10 and 3, read 15, 10 and 5.
    expect(await me.groupNames()).toEqual(['Classroom teacher · 15 votesTeachers like you']);
    const mine = me.group('Classroom teacher');
    expect(await mine.locator('.result-bars').textContent()).toBe('Yes (your vote)67% · 10 votesNo33% · 5 votes');
    expect(await me.notes.allTextContents()).toEqual([
      'About 5 votes withheld: groups of fewer than 10 are not shown, so nobody in them can be picked out. ' +
        "School leader (about 10 votes) is withheld too: with it shown, everyone's result less the groups shown would reveal the votes that are not shown.",
      ROUNDED,
    ]);
    expect(await me.invitation.count()).toBe(0); // this teacher has answered (the profile has loaded: the mark shows)
    await expectAccessible(page);
    await saveScreenshots(page, 'breakdown-today-role');

    await me.view('Grade level').check();
    await me.group('High (9–12)').waitFor();
    expect(await me.groupNames()).toEqual(['High (9–12) · 15 votesTeachers like you']);
    expect(await me.notes.allTextContents()).toEqual([
      'About 15 votes from teachers who did not say. No group is withheld.',
      ROUNDED,
    ]);

    await me.view('Region').check();
    expect(await me.section.locator('.teachers-like-you__view').textContent()).toBe(
      `No region group has 10 votes yet, so none is shown.About 30 votes from teachers who did not say. No group is withheld.${ROUNDED}`,
    );
    await expectAccessible(page);
    expect(errors).toEqual([]);
  }, 90_000);

  it('hides the invitation on this browser after "Not now", and still offers it on request', async () => {
    await seedToday();
    const { page, errors } = await newVisitor(t.browser, t.site);
    const me = new TeachersLikeMe(page);
    await vote(page, 'No');
    await me.invitation.waitFor();

    await me.invitation.getByRole('button', { name: 'Not now' }).click();
    await me.invitation.waitFor({ state: 'detached' });
    const later = page.getByRole('button', { name: 'Tell us about you' });
    // The keyboard stays where the invitation was.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Tell us about you');
    expect(await page.evaluate(() => localStorage.getItem('profileInvitationDismissed'))).toBe('true');
    await expectAccessible(page);
    await saveScreenshots(page, 'profile-not-now');

    await page.reload();
    await me.opensNote.waitFor();
    await later.waitFor();
    expect(await me.invitation.count()).toBe(0);
    expect(await profileOf(page)).toEqual({ role: null, gradeBand: null, region: null, experience: null });

    // Another browser has not said "Not now".
    const other = await newVisitor(t.browser, t.site);
    await vote(other.page, 'Yes');
    await new TeachersLikeMe(other.page).invitation.waitFor();

    // Asked for, it comes back.
    await later.click();
    await me.invitation.waitFor();
    expect(errors).toEqual([]);
  });

  it('after the close, shows the breakdowns to a visitor who did not vote, with the invitation', async () => {
    await seedToday();
    const { page, errors } = await newVisitor(t.browser, t.site, LAPTOP);
    const me = new TeachersLikeMe(page);
    await closeVoting(page);
    await page.goto(t.site.url);
    await me.section.waitFor();
    await me.invitation.waitFor();
    expect(await me.groupNames()).toEqual(['Everyone · 28 votes']);
    expect(await me.opensNote.count()).toBe(0);
    await expectAccessible(page);
    await saveScreenshots(page, 'breakdown-today-closed');
    expect(errors).toEqual([]);
  });
});

/**
 * A question asked three times before today: polls #1 and #2 (plain votes), #3 (votes from
 * teachers who described themselves), and today's #4 asking it again.
 */
async function seedSeries() {
  const options = ['Ban them', 'Allow them'];
  const question = 'Should phones be banned in class?';
  const first = await seedPoll(t.site.db, { question, options, status: 'past', liveDate: '2026-09-01', votes: [6, 4] });
  const second = await seedPoll(t.site.db, {
    question,
    options,
    status: 'past',
    liveDate: '2026-10-01',
    votes: [5, 5],
  });
  const third = await seedPoll(t.site.db, { question, options, status: 'past', liveDate: '2026-11-20' });
  await seedProfiledVotes(t.site.db, third, [
    { profile: { role: 'classroom-teacher' }, votes: [8, 4] },
    { profile: { role: 'school-leader' }, votes: [3, 7] },
    { profile: { role: 'other-educator' }, votes: [2, 0] },
    { profile: {}, votes: [1, 1] },
  ]);
  const today = await seedPoll(t.site.db, { question, options, liveDate: '2026-11-21', votes: [1, 0] });
  // Linked as staff link them ("Asked before as poll #"), each to the run before it.
  const runs = [first, second, third, today];
  for (let i = 1; i < runs.length; i += 1) {
    const [poll, earlier] = await Promise.all([
      findPollById(t.site.db, runs[i]?.id ?? 0),
      findPollById(t.site.db, runs[i - 1]?.id ?? 0),
    ]);
    if (!poll || !earlier) throw new Error('a seeded poll is missing');
    await linkToEarlierRun(t.site.db, poll, earlier);
  }
  return { third, today };
}

describe('a past poll', () => {
  it('shows its breakdown by group and its earlier runs, and marks the group a teacher then gives', async () => {
    await seedSeries();
    const { page, errors } = await newVisitor(t.browser, t.site);
    const me = new TeachersLikeMe(page);
    await page.goto(`${t.site.url}/poll-3`);
    await me.section.waitFor();
    await me.invitation.waitFor();
    expect(await me.groupNames()).toEqual(['Everyone · 26 votes']);
    expect(await me.sample.textContent()).toBe('A self-selected sample of 26 teachers; the bars are not weighted.');

    // The earlier runs, oldest first, this poll last; today's run is not shown before its close.
    await me.askedBefore.waitFor();
    expect(await me.askedBefore.getByRole('heading').textContent()).toBe('Asked before');
    expect(await me.askedBefore.locator('.series__summary').textContent()).toBe(
      '“Ban them” got 54% on this poll: +4 points since poll #2 (Oct 1, 2026).',
    );
    const table = me.askedBefore.getByRole('table');
    expect(await table.locator('thead th').allTextContents()).toEqual([
      'Poll #1Sep 1, 202610 votes',
      'Poll #2Oct 1, 202610 votes',
      'This pollNov 20, 202626 votes',
    ]);
    expect(await table.locator('tbody tr').allTextContents()).toEqual(['Ban them60%50%54%', 'Allow them40%50%46%']);
    expect(await table.locator('tfoot tr').textContent()).toBe('Change in “Ban them”–−10 points+4 points');
    await expectAccessible(page);
    await saveScreenshots(page, 'breakdown-past-everyone');

    await me.view('Role').check();
    await me.group('Classroom teacher').waitFor();
    expect(await me.groupNames()).toEqual(['Classroom teacher · 10 votes']); // 12, rounded
    expect(await me.notes.allTextContents()).toEqual([
      "School leader (about 10 votes) is withheld too: with it shown, everyone's result less the groups shown would reveal the votes that are not shown.",
      ROUNDED,
    ]);
    await me.view('Grade level').check();
    expect(await me.section.locator('.teachers-like-you__view').textContent()).toBe(
      `No grade level group has 10 votes yet, so none is shown.About 25 votes from teachers who did not say. No group is withheld.${ROUNDED}`,
    );

    // Describing oneself marks one's group; the past poll's counts stay as they were.
    await me.view('Role').check();
    await me.chip('Your role', 'Classroom teacher').check();
    await me.invitation.getByRole('button', { name: 'Save' }).click();
    await me.thanks.waitFor();
    expect(await me.groupNames()).toEqual(['Classroom teacher · 10 votesTeachers like you']);
    await expectAccessible(page);
    await saveScreenshots(page, 'breakdown-past-role');
    expect(errors).toEqual([]);
  }, 90_000);

  it('says so when the visitor’s own group is too small to show', async () => {
    await seedSeries();
    const { page } = await newVisitor(t.browser, t.site, LAPTOP);
    await page.goto(t.site.url); // a page of the site, for the cookie to belong to it
    const saved = await page.request.put(`${t.site.url}/api/me/profile`, { data: { role: 'other-educator' } });
    expect(saved.status()).toBe(200);
    const me = new TeachersLikeMe(page);
    await page.goto(`${t.site.url}/poll-3`);
    await me.view('Role').check();
    await me.notes
      .filter({ hasText: 'Your group, Other educator, has fewer than 10 votes on this poll, so it is not shown.' })
      .waitFor();
    expect(await me.groupNames()).toEqual(['Classroom teacher · 10 votes']);
    expect(await me.invitation.count()).toBe(0); // answered already

    // What was answered shows, and can change: the group marked follows.
    const yours = page.locator('.profile-invitation__later');
    expect(await yours.textContent()).toBe('You told us: Other educator. Change');
    await page.getByRole('button', { name: 'Change your answers' }).click();
    const form = page.getByRole('form', { name: 'Your answers' });
    expect(await form.getByRole('radio', { name: 'Other educator' }).isChecked()).toBe(true);
    expect(
      await form
        .getByRole('group', { name: 'Years teaching' })
        .getByRole('radio', { name: 'Prefer not to say' })
        .isChecked(),
    ).toBe(true);
    await form.getByRole('radio', { name: 'School leader' }).check();
    await form.getByRole('group', { name: 'Where you work' }).getByRole('radio', { name: 'West', exact: true }).check();
    await expectAccessible(page);
    await form.getByRole('button', { name: 'Save' }).click();
    await me.thanks.waitFor();
    expect(await me.thanks.textContent()).toBe('Your answers are saved.');
    expect(await profileOf(page)).toEqual({ role: 'school-leader', gradeBand: null, region: 'west', experience: null });
    // Ten school leaders, withheld so that the four votes not shown cannot be worked out.
    await me.notes
      .filter({
        hasText:
          "Your group, School leader, is withheld on this poll so that the votes not shown can't be worked out from it.",
      })
      .waitFor();
    expect(await me.groupNames()).toEqual(['Classroom teacher · 10 votes']);
    expect(await me.notes.allTextContents()).not.toContain(
      'Your group, Other educator, has fewer than 10 votes on this poll, so it is not shown.',
    );
    await saveScreenshots(page, 'breakdown-past-mine-withheld');

    // ... and cleared, one answer at a time.
    await page.reload();
    await page.getByRole('button', { name: 'Change your answers' }).click();
    await form.getByRole('group', { name: 'Your role' }).getByRole('radio', { name: 'Prefer not to say' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await me.thanks.waitFor();
    expect(await profileOf(page)).toEqual({ role: null, gradeBand: null, region: 'west', experience: null });
  }, 90_000);

  it('after a vote on today’s run, says what the last run chose', async () => {
    await seedSeries();
    const { page, errors } = await newVisitor(t.browser, t.site);
    await vote(page, 'Allow them');
    const lastTime = page.locator('.last-time');
    await lastTime.waitFor();
    expect(await lastTime.textContent()).toBe('Last time (poll #3, November 20, 2026): 54% chose Ban them.');
    expect(errors).toEqual([]);
  });
});

describe('with the keyboard alone', () => {
  it('switches the breakdown, answers the invitation and saves it', async () => {
    await seedSeries();
    const { page, errors } = await newVisitor(t.browser, t.site, LAPTOP);
    const me = new TeachersLikeMe(page);
    await page.goto(`${t.site.url}/poll-3`);
    await me.invitation.waitFor();

    // Tab reaches the segmented control on its chosen segment; arrows move the choice.
    await tabTo(page, (el) => el instanceof HTMLInputElement && el.type === 'radio' && el.checked);
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent)).toBe(
      'Everyone',
    );
    await page.keyboard.press('ArrowRight');
    await me.group('Classroom teacher').waitFor();
    expect(await me.view('Role').isChecked()).toBe(true);

    // Into the invitation: Space picks the first answer, arrows another, Tab the next question.
    await tabTo(
      page,
      (el) => el instanceof HTMLInputElement && el.type === 'radio' && el.value === 'classroom-teacher',
    );
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('early-years');
    await page.keyboard.press('ArrowRight');
    expect(await me.chip('Grade level you teach', 'Elementary (K–5)').isChecked()).toBe(true);
    await tabTo(page, (el) => el.textContent === 'Save');
    await page.keyboard.press('Enter');

    await me.thanks.waitFor();
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('profile-invitation__thanks');
    expect(await profileOf(page)).toEqual({
      role: 'classroom-teacher',
      gradeBand: 'elementary',
      region: null,
      experience: null,
    });
    expect(await me.groupNames()).toContain('Classroom teacher · 10 votesTeachers like you');
    expect(errors).toEqual([]);
  });
});

describe('forgetting this browser', () => {
  it('asks first, then deletes the profile and the e-mail on the vote, and clears this browser', async () => {
    const poll = await seedToday();
    const { page, context, errors } = await newVisitor(t.browser, t.site);
    const today = new TodayPage(page);
    const me = new TeachersLikeMe(page);
    await today.goto(t.site.url);
    await today.option('Yes').click();
    await today.subscribeModal.waitFor();
    await page.getByLabel('Email address').fill('pat@example.org');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await today.toast('Subscribed! 🎉').waitFor();
    await me.chip('Your role', 'Support staff (aide, counselor, librarian…)').check();
    await me.invitation.getByRole('button', { name: 'Save' }).click();
    await me.thanks.waitFor();
    expect(await page.evaluate(() => localStorage.getItem('voterEmail'))).toBe('pat@example.org');

    await page.goto(`${t.site.url}/privacy`);
    const forget = page.getByRole('button', { name: 'Forget this browser' });
    const dialog = page.getByRole('alertdialog', { name: 'Forget this browser?' });

    // Cancel changes nothing, and the keyboard is back on the button.
    await forget.click();
    await dialog.waitFor();
    await expectAccessible(page);
    await saveScreenshots(page, 'forget-browser-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Forget this browser');
    expect((await profileOf(page)).role).toBe('support-staff');

    await forget.click();
    await dialog.getByRole('button', { name: 'Forget this browser' }).click();
    const done = page.getByRole('status').filter({ hasText: 'Done.' });
    await done.waitFor();
    expect(await done.textContent()).toBe(
      'Done. This browser has been forgotten: your answers and the e-mail addresses on its votes are deleted, and what it kept on this device is cleared.',
    );
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('voter_id');
    expect(await profileOf(page)).toEqual({ role: null, gradeBand: null, region: null, experience: null });
    const votes = await t.site.db.selectFrom('votes').select('voter_email').where('poll_id', '=', poll.id).execute();
    expect(votes).toHaveLength(29); // still counted
    expect(votes.filter((v) => v.voter_email !== null)).toEqual([]);
    await expectAccessible(page);
    await saveScreenshots(page, 'forget-browser-done');
    expect(errors).toEqual([]);
  }, 90_000);
});

describe('staff', () => {
  it('link a poll to an earlier one as "Asked before", see the server’s refusal, and open a past poll’s breakdowns', async () => {
    await seedPoll(t.site.db, {
      question: 'Should phones be banned in class?',
      options: ['Ban them', 'Allow them'],
      status: 'past',
      liveDate: '2026-11-10',
      votes: [3, 2],
    });
    const { page, errors } = await newVisitor(t.browser, t.site, LAPTOP);
    const admin = new AdminPanel(page);
    await page.goto(`${t.site.url}/admin/polls`);
    await admin.signIn();
    await admin.fillPoll({
      question: 'Phones in class, again?',
      options: ['Ban them', 'Let them'],
      date: '2026-11-22',
    });
    await page.getByLabel('Asked before as poll #').fill('1');
    await expectAccessible(page);

    // The server's sentence, as for any refusal.
    await page.getByRole('button', { name: 'Create Poll' }).click();
    const failed = admin.toast('Failed to create poll');
    await failed.waitFor();
    expect(await failed.textContent()).toContain(
      "A poll asked again must have the same options as before. Poll #1's are: Ban them, Allow them.",
    );

    await page.getByLabel('Option 2', { exact: true }).fill(' allow THEM ');
    await page.getByRole('button', { name: 'Create Poll' }).click();
    await admin.toast('Poll scheduled successfully!').waitFor();
    const again = admin.item('All Polls', 'Phones in class, again?');
    await again.waitFor();
    expect(await again.locator('.admin-item__meta').textContent()).toContain('asks poll #1 again');

    // Editing shows the link, and can remove it.
    await again.getByRole('button', { name: 'Edit' }).click();
    const field = page.getByLabel('Asked before as poll #');
    await expect.poll(() => field.inputValue()).toBe('1');
    await field.fill('');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await admin.toast('Poll updated successfully!').waitFor();
    await expect.poll(() => again.locator('.admin-item__meta').textContent()).not.toContain('asks poll #1 again');

    // A past poll's breakdowns are the page everyone sees.
    await admin
      .item('All Polls', 'Should phones be banned in class?')
      .getByRole('link', { name: 'Results and breakdowns of poll 1' })
      .click();
    await new TeachersLikeMe(page).section.waitFor();
    expect(new URL(page.url()).pathname).toBe('/poll-1');
    expect(errors.filter((e) => !e.includes('400'))).toEqual([]);
  }, 90_000);
});
