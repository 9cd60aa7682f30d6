/** The admin panel as staff use it on a laptop, in Chromium. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { insertVoteRow, seedPoll } from '../../src/server/testing/fixtures.js';
import { snapshotDatabase } from '../../src/server/testing/snapshot.js';
import { TEST_ADMIN_PASSWORD } from '../../src/server/testing/test-app.js';
import { insertStaff } from '../../src/server/staff/staff.repository.js';
import { hashPassword } from '../../src/server/staff/password.js';
import { STAFF_TEST_PASSWORD } from '../../src/server/testing/staff.js';
import { newYorkTime } from '../../src/server/testing/test-clock.js';
import { AdminPanel, TodayPage } from './pages.js';
import { browserTest, expectAccessible, LAPTOP, newVisitor, saveScreenshots } from './support.js';

const t = browserTest();

/** A staff browser at one of the panel's places (signed out: it signs in there): the polls by default. */
async function openAdmin(path = '/admin/polls') {
  const visitor = await newVisitor(t.browser, t.site, LAPTOP);
  await visitor.page.goto(`${t.site.url}${path}`);
  const admin = new AdminPanel(visitor.page);
  return { ...visitor, admin };
}

/** A visitor's suggestion, sent as the suggestion form sends it. */
async function suggest(suggestion: { question: string; options: string[]; suggestedBy?: string; email?: string }) {
  await fetch(`${t.site.url}/api/poll-suggestions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(suggestion),
  });
}

describe('signing in', () => {
  it('refuses a wrong password with "Access denied" and clears the field; the right one opens the panel', async () => {
    const { page, admin, errors } = await openAdmin();
    await admin.signIn('not the password');
    const denied = admin.toast('Access denied');
    await denied.waitFor();
    expect(await denied.textContent()).toContain('Incorrect email or password');
    expect(await page.getByLabel('Password').inputValue()).toBe('');

    await admin.signIn();
    await admin.toast('Access granted').waitFor();
    await page.getByRole('heading', { name: 'Admin Panel', level: 1 }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('adminAuthenticated'))).toBe('true');
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
  });

  it('logs out, and after a reload the panel is gone', async () => {
    const { page, admin } = await openAdmin();
    await admin.signIn();
    await page.getByRole('button', { name: 'Update Poll Status' }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).first().click();
    await admin.toast('Logged out').waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Access Admin Panel' }).waitFor();
    expect(await page.getByRole('button', { name: 'Update Poll Status' }).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('adminAuthenticated'))).toBeNull();
  });

  it('ignores a forged local-storage flag: the server decides', async () => {
    const { page } = await openAdmin();
    await page.evaluate(() => localStorage.setItem('adminAuthenticated', 'true'));
    await page.reload();
    await page.getByRole('button', { name: 'Access Admin Panel' }).waitFor();
  });
});

describe('managing polls', () => {
  it('creates a poll for today that goes live, schedules one, edits it and makes it active now', async () => {
    await seedPoll(t.site.db, { question: 'Yesterday’s leftover?', options: ['A', 'B'] });
    const { page, admin } = await openAdmin();
    await admin.signIn();
    await page.getByLabel('Question').waitFor();
    expect(await page.getByLabel('Go-live date').inputValue()).toBe('2026-11-21');
    expect(await page.locator('.admin-form [id$="-date-help"]').textContent()).toBe('This poll goes live immediately.');

    // Validation first.
    await page.getByRole('button', { name: 'Create Poll' }).click();
    await admin.toast('Required fields missing').waitFor();
    await page.getByLabel('Question').fill('Only one option?');
    await page.getByLabel('Option 1', { exact: true }).fill('Yes');
    await page.getByRole('button', { name: 'Create Poll' }).click();
    await admin.toast('Need more options').waitFor();

    await admin.fillPoll({
      question: 'Should schools start later for teenagers?',
      options: ['Yes', 'No', 'Only high schools'],
    });
    await page.getByRole('button', { name: 'Create Poll' }).click();
    await admin.toast('Poll created and is now live!').waitFor();

    const visitor = await newVisitor(t.browser, t.site);
    const today = new TodayPage(visitor.page);
    await today.goto(t.site.url);
    await today.question.waitFor();
    expect(await today.question.textContent()).toBe('Should schools start later for teenagers?');

    // Schedule one for three days on.
    await admin.fillPoll({
      question: 'Is a four-day school week good for students?',
      options: ['Yes', 'No'],
      date: '2026-11-24',
    });
    expect(await page.locator('.admin-form [id$="-date-help"]').textContent()).toBe(
      'Polls become active at midnight on the selected date.',
    );
    await page.getByRole('button', { name: 'Create Poll' }).click();
    await admin.toast('Poll scheduled successfully!').waitFor();
    const upcoming = admin.item('Upcoming Polls', 'four-day school week');
    await upcoming.waitFor();
    expect(await upcoming.locator('.admin-item__meta').textContent()).toBe(
      'Goes live in 3 days · November 24, 2026 · 2 options',
    );

    // Edit it.
    await upcoming.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: /Edit Poll #/ }).waitFor();
    await page.getByLabel('Question').fill('Would a four-day school week be good for students?');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await admin.toast('Poll updated successfully!').waitFor();
    await admin.item('Upcoming Polls', 'Would a four-day school week').waitFor();
    await page.getByRole('heading', { name: 'Create a New Poll' }).waitFor();

    // Make it active now, after the confirmation.
    await admin.item('Upcoming Polls', 'Would a four-day').getByRole('button', { name: 'Make Active Now' }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain(
      'This will override the scheduled date and deactivate the current poll.',
    );
    await admin.confirm('Make Active Now');
    await admin.toast('Poll is now active!').waitFor();
    await visitor.page.reload();
    await today.question.waitFor();
    expect(await today.question.textContent()).toBe('Would a four-day school week be good for students?');
    expect(await admin.section('Upcoming Polls').locator('.admin-item').count()).toBe(0);

    // A past poll can be brought back with "Make Active", and deleted.
    const leftover = admin.item('All Polls', 'leftover');
    await leftover.getByRole('button', { name: 'Make Active' }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('This will deactivate the current poll.');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await leftover.getByRole('button', { name: /Delete poll/ }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('This action cannot be undone.');
    await admin.confirm('Delete');
    await admin.toast('Poll deleted successfully').waitFor();
    await leftover.waitFor({ state: 'detached' });
  });

  it('shows a poll’s voter e-mails with counts, and downloads every vote as CSV', async () => {
    const poll = await seedPoll(
      t.site.db,
      {
        question: 'Should homework be banned?',
        options: ['Yes', 'No'],
        status: 'past',
        liveDate: '2026-11-20',
        votes: [1, 1],
      },
      newYorkTime('2026-11-20', '09:00'),
    );
    await insertVoteRow(t.site.db, {
      pollId: poll.id,
      optionIndex: 1,
      voterEmail: 'pat@example.org',
      createdAt: '2026-11-21T03:30:00.000Z',
    });
    await insertVoteRow(t.site.db, {
      pollId: poll.id,
      optionIndex: 0,
      voterEmail: '=sum@example.org',
      createdAt: '2026-11-20T15:00:00.000Z',
    });
    const { page, admin } = await openAdmin();
    await admin.signIn();

    const item = admin.item('All Polls', 'homework');
    await item.getByRole('button', { name: 'Voter emails' }).click();
    await item.getByText('2 of 4 votes carry an email.').waitFor();
    expect(await item.locator('.admin-voters__counts li').allTextContents()).toEqual([
      'Yes: 2 votes, 1 with an email',
      'No: 2 votes, 1 with an email',
    ]);
    expect(await item.locator('.admin-voters__table tbody tr').allTextContents()).toEqual([
      'pat@example.orgNo',
      '=sum@example.orgYes',
    ]);

    /** The lines of the CSV a link downloads. */
    async function downloaded(link: string) {
      const download = page.waitForEvent('download');
      await item.getByRole('link', { name: link }).click();
      const file = await download;
      // The browser saves the server's stream to disk: the page never reads the rows into memory
      // (a file the page built itself would come from a blob: or data: address).
      expect(file.suggestedFilename()).toBe(`poll-votes-${poll.id}-2026-11-21.csv`);
      return {
        url: file.url(),
        lines: fs
          .readFileSync(await file.path(), 'utf8')
          .replace(/^\uFEFF/, '')
          .split('\r\n'),
      };
    }
    // Every vote; the e-mails only in the owner's CSV with them.
    const plain = await downloaded('Download CSV');
    expect(plain.url).toBe(`${t.site.url}/api/admin/polls/${poll.id}/votes.csv`);
    expect(plain.lines).toEqual([
      'Poll Question,Selected Option,Voter Email,Vote Date,Vote Time',
      'Should homework be banned?,Yes,,2026-11-20,09:00:00',
      'Should homework be banned?,No,,2026-11-20,09:00:00',
      'Should homework be banned?,No,,2026-11-20,22:30:00',
      'Should homework be banned?,Yes,,2026-11-20,10:00:00',
      '',
    ]);
    const withEmails = await downloaded('CSV with voter emails');
    expect(withEmails.lines).toEqual([
      'Poll Question,Selected Option,Voter Email,Vote Date,Vote Time',
      'Should homework be banned?,Yes,,2026-11-20,09:00:00',
      'Should homework be banned?,No,,2026-11-20,09:00:00',
      'Should homework be banned?,No,pat@example.org,2026-11-20,22:30:00',
      "Should homework be banned?,Yes,'=sum@example.org,2026-11-20,10:00:00",
      '',
    ]);
  });

  it('shows a poll whose day passed without going live as Missed, to run now or give a new date', async () => {
    await seedPoll(t.site.db, { question: 'Current?', options: ['A', 'B'], liveDate: '2026-11-19' });
    await seedPoll(t.site.db, {
      question: 'Due while the site was down?',
      options: ['A', 'B'],
      status: 'scheduled',
      liveDate: '2026-11-20',
    });
    const { page, admin } = await openAdmin();
    await admin.signIn();
    const missed = admin.item('Upcoming Polls', 'Due while the site was down?');
    await missed.waitFor();
    expect(await missed.locator('.admin-item__meta').textContent()).toBe(
      'Missed was due November 20, 2026 · 2 options',
    );
    expect(await admin.item('All Polls', 'Due while the site was down?').locator('.admin-badge').textContent()).toBe(
      'Missed',
    );
    await missed.getByRole('button', { name: 'Make Active Now' }).waitFor();
    await expectAccessible(page);
    await saveScreenshots(page, 'admin-missed-poll');

    await missed.getByRole('button', { name: 'Edit' }).click();
    expect(await page.locator('.admin-form [id$="-date-help"]').textContent()).toBe(
      'This date has passed. Choose today to put the poll live now, or a later date.',
    );
    await page.getByLabel('Go-live date').fill('2026-11-23');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await admin.toast('Poll updated successfully!').waitFor();
    await admin.item('Upcoming Polls', 'Due while the site was down?').getByText('Goes live in 2 days').waitFor();
  });
});

describe('re-confirming', () => {
  const MINUTE = 60_000;

  it('asks the owner to sign in again before a new password, then saves it', async () => {
    const { page, admin } = await openAdmin('/admin/account');
    await admin.signIn();
    const account = page.locator('section', { has: page.getByRole('heading', { name: /^Your sign-in/ }) });
    await account.waitFor();
    t.site.clock.advance(11 * MINUTE);

    await account.getByLabel(/^New password/).fill('a brand new staff passphrase');
    await account.getByRole('button', { name: 'Save password' }).click();
    const prompt = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain(
      'Changing your password needs a sign-in within the last 10 minutes. Please confirm it is you, then try again.',
    );
    expect(await prompt.getByLabel('Email').inputValue()).toBe('owner@school.example');
    await expectAccessible(page);
    await saveScreenshots(page, 'admin-reconfirm');
    await prompt.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await prompt.getByRole('button', { name: 'Access Admin Panel' }).click();
    await admin.toast('Password saved').waitFor();
    await prompt.waitFor({ state: 'detached' });

    // The new password is the one that signs in now.
    const signIn = (password: string) =>
      fetch(`${t.site.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@school.example', password }),
      });
    expect((await signIn(TEST_ADMIN_PASSWORD)).status).toBe(401);
    expect((await signIn('a brand new staff passphrase')).status).toBe(200);
  });

  it('shows an editor no Delete for a poll with votes; the owner deletes one after confirming it is them', async () => {
    await seedPoll(t.site.db, {
      question: 'Nobody voted yet?',
      options: ['A', 'B'],
      status: 'scheduled',
      liveDate: '2026-11-25',
    });
    await seedPoll(t.site.db, { question: 'Voted on?', options: ['A', 'B'], liveDate: '2026-11-21', votes: [3, 2] });
    await insertStaff(
      t.site.db,
      {
        email: 'ed@school.example',
        displayName: 'Ed',
        role: 'editor',
        passwordHash: await hashPassword(STAFF_TEST_PASSWORD),
      },
      t.site.clock.now().toISOString(),
    );
    const editor = await openAdmin();
    await editor.admin.signIn(STAFF_TEST_PASSWORD, 'ed@school.example');
    const seen = editor.admin.item('All Polls', 'Voted on?');
    await seen.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await seen.getByRole('button', { name: /Delete poll/ }).count()).toBe(0);
    await editor.admin
      .item('All Polls', 'Nobody voted yet?')
      .getByRole('button', { name: /Delete poll/ })
      .waitFor();

    const { page, admin } = await openAdmin();
    await admin.signIn();
    const voted = admin.item('All Polls', 'Voted on?');
    await voted.waitFor();
    t.site.clock.advance(11 * MINUTE);
    await voted.getByRole('button', { name: /Delete poll/ }).click();
    await admin.confirm('Delete');
    const prompt = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await prompt
      .getByText('Deleting a poll with votes needs a sign-in within the last 10 minutes.', { exact: false })
      .waitFor();
    await prompt.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await prompt.getByRole('button', { name: 'Access Admin Panel' }).click();
    await admin.toast('Poll deleted successfully').waitFor();
    await voted.waitFor({ state: 'detached' });
  });
});

describe('community suggestions', () => {
  it('uses, approves, rejects and deletes suggestions', async () => {
    for (const question of ['Should cursive be taught?', 'Are snow days outdated?', 'Best pizza topping?']) {
      await suggest({
        question,
        options: ['Yes', 'No'],
        suggestedBy: 'Ms. Rivera',
        email: 'rivera@example.org',
      });
    }
    const { page, admin } = await openAdmin('/admin/suggestions');
    await admin.signIn();
    const pending = admin.section('Community Poll Suggestions');
    await pending.getByText('Best pizza topping?').waitFor();
    expect(await pending.locator('.admin-count').textContent()).toBe('3');

    await admin
      .item('Community Poll Suggestions', 'cursive')
      .getByRole('button', { name: 'Use This Suggestion' })
      .click();
    await admin.toast('Suggestion loaded!').waitFor();
    expect(await page.getByLabel('Question').inputValue()).toBe('Should cursive be taught?');
    expect(await page.getByLabel('Description (optional)').inputValue()).toBe('Poll suggested by the community');
    expect(await page.getByLabel('Option 2', { exact: true }).inputValue()).toBe('No');
    expect(new URL(page.url()).pathname).toBe('/admin/polls');
    // The back button returns to the suggestions.
    await page.goBack();
    expect(new URL(page.url()).pathname).toBe('/admin/suggestions');

    await admin.item('Community Poll Suggestions', 'cursive').getByRole('button', { name: 'Approve' }).click();
    await admin.toast('Suggestion approved!').waitFor();
    await admin.item('Community Poll Suggestions', 'pizza').getByRole('button', { name: 'Reject' }).click();
    await admin.toast('Suggestion rejected').waitFor();

    const reviewed = admin.section('Reviewed Submissions');
    await reviewed.getByText('Best pizza topping?').waitFor();
    expect(await reviewed.locator('.admin-badge').allTextContents()).toEqual(['Rejected', 'Approved']);
    expect(
      await admin.item('Reviewed Submissions', 'pizza').getByRole('button', { name: 'Use This Suggestion' }).count(),
    ).toBe(0);
    await admin.item('Reviewed Submissions', 'cursive').getByRole('button', { name: 'Use This Suggestion' }).click();
    await admin.toast('Approved suggestion loaded!').waitFor();
    await admin.go('Suggestions');

    await admin
      .item('Community Poll Suggestions', 'snow days')
      .getByRole('button', { name: /Delete suggestion/ })
      .click();
    await admin.confirm('Delete');
    await admin.toast('Suggestion deleted!').waitFor();
    expect(await pending.locator('.admin-item').count()).toBe(0);
    const stored = await t.site.db
      .selectFrom('poll_suggestions')
      .select(['question', 'status'])
      .orderBy('id')
      .execute();
    expect(stored).toEqual([
      { question: 'Should cursive be taught?', status: 'approved' },
      { question: 'Best pizza topping?', status: 'rejected' },
    ]);
  });

  it('shows the first page of each list, newest first, and more on demand', async () => {
    /** `count` suggestions, one a minute, the last the newest; reviewed ones reviewed in the same order. */
    const seed = async (label: string, count: number, reviewed: boolean) => {
      const rows = Array.from({ length: count }, (_, n) => {
        const at = new Date(Date.UTC(2026, 10, 20, 12, n)).toISOString();
        return {
          question: `${label} ${n + 1}?`,
          options: '["Yes","No"]',
          status: reviewed ? ('rejected' as const) : ('pending' as const),
          created_at: at,
          reviewed_at: reviewed ? at : null,
        };
      });
      await t.site.db.insertInto('poll_suggestions').values(rows).execute();
    };
    await seed('Pending', 45, false);
    await seed('Reviewed', 23, true);
    const newestFirst = (label: string, from: number, to: number) =>
      Array.from({ length: from - to + 1 }, (_, i) => `${label} ${from - i}?`);

    const { page, admin } = await openAdmin('/admin/suggestions');
    await admin.signIn();
    const pending = admin.section('Community Poll Suggestions');
    await pending.getByText('Pending 45?').waitFor();
    expect(await pending.locator('.admin-count').textContent()).toBe('45');
    expect(await admin.questions('Community Poll Suggestions')).toEqual(newestFirst('Pending', 45, 26));
    expect(await admin.section('Reviewed Submissions').locator('.admin-count').textContent()).toBe('23');
    expect(await admin.questions('Reviewed Submissions')).toEqual(newestFirst('Reviewed', 23, 4));

    await admin.showMore('Community Poll Suggestions');
    expect(await admin.questions('Community Poll Suggestions')).toEqual(newestFirst('Pending', 45, 6));
    await admin.showMore('Community Poll Suggestions');
    expect(await admin.questions('Community Poll Suggestions')).toEqual(newestFirst('Pending', 45, 1));
    expect(await pending.getByRole('button', { name: 'Show more suggestions' }).count()).toBe(0);

    // Approving one far down the list moves it to the top of Reviewed Submissions; both lists stay whole.
    await admin.item('Community Poll Suggestions', 'Pending 3?').getByRole('button', { name: 'Approve' }).click();
    await admin.toast('Suggestion approved!').waitFor();
    await admin.item('Reviewed Submissions', 'Pending 3?').waitFor();
    expect(await pending.locator('.admin-count').textContent()).toBe('44');
    expect(await admin.questions('Community Poll Suggestions')).toEqual(
      newestFirst('Pending', 45, 1).filter((q) => q !== 'Pending 3?'),
    );
    expect(await admin.questions('Reviewed Submissions')).toEqual(['Pending 3?', ...newestFirst('Reviewed', 23, 5)]);
    await admin.showMore('Reviewed Submissions');
    expect(await admin.questions('Reviewed Submissions')).toEqual(['Pending 3?', ...newestFirst('Reviewed', 23, 1)]);
    expect(await admin.section('Reviewed Submissions').locator('.admin-count').textContent()).toBe('24');
    await expectAccessible(page);
  });
});

describe('confirming an activation', () => {
  it('words the question after the button pressed, not after the poll', async () => {
    await seedPoll(t.site.db, { question: 'Live now?', options: ['A', 'B'] });
    await seedPoll(t.site.db, {
      question: 'Next week?',
      options: ['A', 'B'],
      status: 'scheduled',
      liveDate: '2026-11-28',
    });
    const { page, admin } = await openAdmin();
    await admin.signIn();
    const dialog = page.getByRole('alertdialog');

    // The same scheduled poll, from Upcoming Polls ...
    await admin.item('Upcoming Polls', 'Next week?').getByRole('button', { name: 'Make Active Now' }).click();
    await dialog.waitFor();
    expect(await dialog.locator('p').textContent()).toBe(
      'This will override the scheduled date and deactivate the current poll.',
    );
    expect(await dialog.getByRole('button', { name: 'Make Active Now' }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // ... and from All Polls.
    await admin.item('All Polls', 'Next week?').getByRole('button', { name: 'Make Active' }).click();
    await dialog.waitFor();
    expect(await dialog.locator('p').textContent()).toBe('This will deactivate the current poll.');
    await admin.confirm('Make Active');
    await admin.toast('Poll is now active!').waitFor();
  });
});

describe('two staff at once', () => {
  it('refuses an activation confirmed against a list that changed meanwhile, in the server’s words, and shows the list as it is', async () => {
    await seedPoll(t.site.db, { question: 'Live now?', options: ['A', 'B'] });
    for (const [question, liveDate] of [
      ['Next week?', '2026-11-28'],
      ['The week after?', '2026-12-05'],
    ] as const) {
      await seedPoll(t.site.db, { question, options: ['A', 'B'], status: 'scheduled', liveDate });
    }
    const first = await openAdmin();
    await first.admin.signIn();
    await first.admin.item('Upcoming Polls', 'Next week?').getByRole('button', { name: 'Make Active Now' }).waitFor();
    // A colleague, on another laptop, makes another poll active first.
    const colleague = await openAdmin();
    await colleague.admin.signIn();
    await colleague.admin
      .item('Upcoming Polls', 'The week after?')
      .getByRole('button', { name: 'Make Active Now' })
      .click();
    await colleague.admin.confirm('Make Active Now');
    await colleague.admin.toast('Poll is now active!').waitFor();

    // The first still sees "Live now?" as the current poll, and confirms retiring it: refused.
    await first.admin.item('Upcoming Polls', 'Next week?').getByRole('button', { name: 'Make Active Now' }).click();
    await first.admin.confirm('Make Active Now');
    const refused = first.admin.toast('Failed to make poll active');
    await refused.waitFor();
    expect(await refused.locator('.toast__description').textContent()).toBe(
      'Another poll was just made active, so nothing changed. Check the list, then try again.',
    );
    const active = () =>
      t.site.db.selectFrom('polls').select('question').where('status', '=', 'active').executeTakeFirstOrThrow();
    expect((await active()).question).toBe('The week after?');
    // The list now shows the colleague's change; pressed again, it goes through.
    await expect.poll(() => first.admin.item('Upcoming Polls', 'The week after?').count()).toBe(0);
    await first.admin.item('Upcoming Polls', 'Next week?').getByRole('button', { name: 'Make Active Now' }).click();
    await first.admin.confirm('Make Active Now');
    await first.admin.toast('Poll is now active!').waitFor();
    expect((await active()).question).toBe('Next week?');
    expect([...first.errors, ...colleague.errors].filter((e) => !e.includes('409'))).toEqual([]);
  });
});

describe('when a call fails', () => {
  it('shows the spec’s sentences when the network fails, and the server’s words when it refuses', async () => {
    await seedPoll(t.site.db, {
      question: 'Scheduled already?',
      options: ['A', 'B'],
      status: 'scheduled',
      liveDate: '2026-11-24',
    });
    await suggest({ question: 'Are snow days outdated?', options: ['Yes', 'No'] });
    const { page, admin } = await openAdmin();
    await admin.signIn();
    await page.getByLabel('Question').waitFor();

    await page.route('**/api/admin/polls', (route) => route.abort('internetdisconnected'), { times: 1 });
    await admin.fillPoll({ question: 'Should schools start later?', options: ['Yes', 'No'] });
    await page.getByRole('button', { name: 'Create Poll' }).click();
    const createFailed = admin.toast('Failed to create poll');
    await createFailed.waitFor();
    expect(await createFailed.locator('.toast__description').textContent()).toBe('Please try again.');
    expect(await page.getByLabel('Question').inputValue()).toBe('Should schools start later?');

    // The server refuses a second poll on a scheduled day, in its own words.
    await page.getByLabel('Go-live date').fill('2026-11-24');
    await page.getByRole('button', { name: 'Create Poll' }).click();
    await expect
      .poll(() => createFailed.locator('.toast__description').textContent())
      .toBe('Another poll is already scheduled for that day.');

    await page.route('**/api/admin/poll-suggestions/*/status', (route) => route.abort('connectionreset'));
    await admin.go('Suggestions');
    await admin.item('Community Poll Suggestions', 'snow days').getByRole('button', { name: 'Approve' }).click();
    const approveFailed = admin.toast('Error');
    await approveFailed.waitFor();
    expect(await approveFailed.locator('.toast__description').textContent()).toBe('Failed to approve suggestion.');
    const stored = await t.site.db.selectFrom('poll_suggestions').select('status').executeTakeFirstOrThrow();
    expect(stored.status).toBe('pending');
  });

  it('says which action failed for every other change the network loses, and changes nothing', async () => {
    await seedPoll(t.site.db, { question: 'Live now?', options: ['A', 'B'] });
    await seedPoll(t.site.db, {
      question: 'Next week?',
      options: ['A', 'B'],
      status: 'scheduled',
      liveDate: '2026-11-28',
    });
    await suggest({ question: 'Are snow days outdated?', options: ['Yes', 'No'] });
    const { page, admin } = await openAdmin();
    await admin.signIn();
    await admin.item('Upcoming Polls', 'Next week?').waitFor();
    const before = await snapshotDatabase(t.site.db);

    /** Drops the next `method` call to `url` as a lost network would, then lets calls through again. */
    const loseNext = async (url: string, method: string, act: () => Promise<void>) => {
      await page.route(url, (route) =>
        route.request().method() === method ? route.abort('internetdisconnected') : route.fallback(),
      );
      await act();
      await page.unroute(url);
    };
    const expectToast = async (title: string, description: string) => {
      const toast = admin.toast(title).filter({ hasText: description });
      await toast.waitFor();
      expect(await toast.locator('.toast__description').textContent()).toBe(description);
    };

    await loseNext('**/api/admin/polls/*', 'PUT', async () => {
      await admin.item('Upcoming Polls', 'Next week?').getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Question').fill('Next week, edited?');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expectToast('Failed to update poll', 'Please try again.');
    });
    expect(await page.getByLabel('Question').inputValue()).toBe('Next week, edited?');

    await loseNext('**/api/admin/polls/*', 'DELETE', async () => {
      await admin
        .item('All Polls', 'Live now?')
        .getByRole('button', { name: /Delete poll/ })
        .click();
      await admin.confirm('Delete');
      await expectToast('Failed to delete poll', 'Please try again.');
    });

    await loseNext('**/api/admin/update-poll-status', 'POST', async () => {
      await page.getByRole('button', { name: 'Update Poll Status' }).click();
      await expectToast('Failed to update poll statuses', 'Please try again.');
    });

    await admin.go('Suggestions');
    await loseNext('**/api/admin/poll-suggestions/*/status', 'PUT', async () => {
      await admin.item('Community Poll Suggestions', 'snow days').getByRole('button', { name: 'Reject' }).click();
      await expectToast('Error', 'Failed to reject suggestion.');
    });

    await loseNext('**/api/admin/poll-suggestions/*', 'DELETE', async () => {
      await admin
        .item('Community Poll Suggestions', 'snow days')
        .getByRole('button', { name: /Delete suggestion/ })
        .click();
      await admin.confirm('Delete');
      await expectToast('Error', 'Failed to delete suggestion.');
    });

    expect(await snapshotDatabase(t.site.db)).toEqual(before);
  });

  it('offers "Try again" after a network failure, which makes the same change once the network is back', async () => {
    await seedPoll(t.site.db, { question: 'Live now?', options: ['A', 'B'] });
    await seedPoll(t.site.db, {
      question: 'Next week?',
      options: ['A', 'B'],
      status: 'scheduled',
      liveDate: '2026-11-28',
    });
    const { page, admin } = await openAdmin();
    await admin.signIn();
    await page.route('**/api/admin/polls/*/activate', (route) => route.abort('internetdisconnected'), { times: 1 });
    await admin.item('Upcoming Polls', 'Next week?').getByRole('button', { name: 'Make Active Now' }).click();
    await admin.confirm('Make Active Now');
    const failed = admin.toast('Failed to make poll active');
    await failed.waitFor();
    expect(await failed.locator('.toast__description').textContent()).toBe('Please try again.');

    await failed.getByRole('button', { name: 'Try again' }).click();
    await admin.toast('Poll is now active!').waitFor();
    const active = await t.site.db
      .selectFrom('polls')
      .select('question')
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow();
    expect(active.question).toBe('Next week?');
  });

  it('does not call a password wrong when the sign-in never reached the server', async () => {
    const { page, admin } = await openAdmin();
    await page.route('**/api/admin/login', (route) => route.abort('internetdisconnected'), { times: 1 });
    await admin.signIn();
    const failed = admin.toast('The admin panel could not be reached.');
    await failed.waitFor();
    expect(await failed.locator('.toast__description').textContent()).toBe('Please try again.');
    expect(await page.getByLabel('Password').inputValue()).toBe(TEST_ADMIN_PASSWORD);

    await page.getByRole('button', { name: 'Access Admin Panel' }).click();
    await admin.toast('Access granted').waitFor();
  });
});

describe('utilities and accessibility', () => {
  it('resets the subscription popup', async () => {
    const { page, admin } = await openAdmin('/admin');
    await page.evaluate(() => {
      localStorage.setItem('emailModalSeen', 'true');
      localStorage.setItem('emailSubscribed', 'true');
      localStorage.setItem('voterEmail', 'pat@example.org');
    });
    await admin.signIn();
    await page.getByRole('button', { name: 'Reset Subscription Popup' }).click();
    await admin.toast('Subscription popup reset').waitFor();
    const keys = await page.evaluate(() => Object.keys(localStorage).sort());
    expect(keys).toEqual(['adminAuthenticated']);
  });

  it('shows how many subscribers confirmed and how many still have to', async () => {
    const subscriber = (n: number, confirmed: boolean, unsubscribed = false) => ({
      email: `teacher${n}@example.org`,
      created_at: '2026-11-20T15:00:00.000Z',
      confirmed_at: confirmed ? '2026-11-20T16:00:00.000Z' : null,
      unsubscribed_at: unsubscribed ? '2026-11-21T09:00:00.000Z' : null,
    });
    await t.site.db
      .insertInto('subscribers')
      .values([
        subscriber(1, true),
        subscriber(2, true),
        subscriber(3, true),
        subscriber(4, false),
        subscriber(5, false),
        subscriber(6, true, true),
      ])
      .execute();
    const { page, admin } = await openAdmin('/admin');
    await admin.signIn();
    const summary = admin.section('Utilities').locator('dl');
    await summary.waitFor();
    const figures = await summary
      .locator('dt')
      .evaluateAll((terms) => terms.map((term) => [term.textContent, term.nextElementSibling?.textContent]));
    expect(figures.slice(0, 3)).toEqual([
      ['Subscribers (confirmed)', '3'],
      ['Awaiting confirmation', '2'],
      ['Unsubscribed', '1'],
    ]);
    await expectAccessible(page);
  });

  it('has no serious or critical accessibility violations, signed out or in', async () => {
    await seedPoll(t.site.db, { question: 'Live poll?', options: ['A', 'B'], votes: [2, 1] });
    await seedPoll(t.site.db, {
      question: 'Scheduled poll?',
      options: ['A', 'B'],
      status: 'scheduled',
      liveDate: '2026-11-23',
    });
    await suggest({ question: 'A suggestion?', options: ['Yes', 'No'] });
    const { page, admin } = await openAdmin();
    await page.getByRole('button', { name: 'Access Admin Panel' }).waitFor();
    await expectAccessible(page);
    await saveScreenshots(page, 'admin-sign-in');
    await admin.signIn();
    await admin.section('All Polls').getByText('Scheduled poll?').waitFor();
    await admin.item('All Polls', 'Live poll?').getByRole('button', { name: 'Voter emails' }).click();
    await admin.item('All Polls', 'Live poll?').getByText('0 of 3 votes carry an email.').waitFor();
    await admin.item('All Polls', 'Live poll?').getByRole('link', { name: 'Download CSV' }).waitFor();
    await expectAccessible(page);
    await saveScreenshots(page, 'admin-panel');
    await admin
      .item('All Polls', 'Scheduled poll?')
      .getByRole('button', { name: /Delete poll/ })
      .click();
    await page.getByRole('alertdialog').waitFor();
    await expectAccessible(page);
  });
});
