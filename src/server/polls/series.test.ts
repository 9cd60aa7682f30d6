/** Questions asked again: staff link a poll to an earlier run, and visitors see the runs side by side. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivePoll, AdminPoll, PollResults, SavedPoll } from '../../shared/api.js';
import { seedPoll } from '../testing/fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestApp, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import type { PollRecord } from './poll.js';

describe.each(testDatabaseKinds())('questions asked again (%s)', (kind) => {
  let t: TestApp;
  let staff: Visitor;
  let first: PollRecord;

  beforeEach(async () => {
    t = await createTestApp(kind);
    staff = new Visitor(t.app, { origin: t.config.site.publicUrl });
    await staff.post('/api/admin/login', TEST_SIGN_IN);
    first = await seedPoll(t.db, {
      question: 'Phones in class?',
      options: ['Ban them', 'Allow them'],
      status: 'past',
      liveDate: '2026-09-01',
      votes: [6, 4],
    });
  });
  afterEach(() => t.close());

  const draft = (overrides: Record<string, unknown> = {}) => ({
    question: 'Phones in class, again?',
    options: [' ban THEM ', 'allow them'],
    liveDate: '2026-11-25',
    askedBefore: first.pollNumber,
    ...overrides,
  });

  it('links a new poll to an earlier past one with the same answers (case and spaces aside), and shows the link to staff', async () => {
    const created = await staff.post('/api/admin/polls', draft());
    expect(created.statusCode).toBe(201);
    expect(created.json<SavedPoll>().poll.askedBefore).toBe(first.pollNumber);
    const listed = (await staff.get('/api/admin/polls')).json<AdminPoll[]>();
    expect(listed.map((p) => [p.pollNumber, p.askedBefore])).toEqual([
      [created.json<SavedPoll>().poll.pollNumber, first.pollNumber],
      [first.pollNumber, null],
    ]);
    // Editing can unlink it.
    const id = created.json<SavedPoll>().poll.id;
    const unlinked = await staff.request({
      method: 'PUT',
      url: `/api/admin/polls/${id}`,
      payload: draft({ askedBefore: null }),
    });
    expect(unlinked.statusCode).toBe(200);
    expect(unlinked.json<SavedPoll>().poll.askedBefore).toBeNull();
  });

  it('refuses, saying why, a link to a poll with other answers, one that has not run, today’s, or a later one; storing nothing', async () => {
    const scheduled = await seedPoll(t.db, {
      status: 'scheduled',
      liveDate: '2026-11-28',
      options: ['Ban them', 'Allow them'],
    });
    const later = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', options: ['Ban them', 'Allow them'] });
    const live = await seedPoll(t.db, { liveDate: '2026-11-21', options: ['Ban them', 'Allow them'] });
    const before = await snapshotDatabase(t.db);
    const cases: [Record<string, unknown>, string][] = [
      [
        { options: ['Ban them', 'Allow them', 'Depends'] },
        `A poll asked again must have the same options as before. Poll #${first.pollNumber}'s are: Ban them, Allow them.`,
      ],
      [
        { options: ['Ban them', 'Let them'] },
        `A poll asked again must have the same options as before. Poll #${first.pollNumber}'s are: Ban them, Allow them.`,
      ],
      [
        { askedBefore: scheduled.pollNumber },
        `There is no past poll #${scheduled.pollNumber}. "Asked before" must name a poll that has already run.`,
      ],
      [{ askedBefore: 999 }, 'There is no past poll #999. "Asked before" must name a poll that has already run.'],
      [
        { askedBefore: live.pollNumber },
        `Poll #${live.pollNumber} is today's poll and still running. It can be asked again once it is a past poll.`,
      ],
    ];
    for (const [overrides, message] of cases) {
      const response = await staff.post('/api/admin/polls', draft(overrides));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json()).toEqual({ message, code: 'validation' });
    }
    // A past poll edited to ask a poll that ran after it.
    const edit = await staff.request({
      method: 'PUT',
      url: `/api/admin/polls/${first.id}`,
      payload: draft({
        question: first.question,
        options: ['Ban them', 'Allow them'],
        liveDate: first.liveDate,
        askedBefore: later.pollNumber,
      }),
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().message).toBe(
      `Poll #${later.pollNumber} did not run before this one, so this poll cannot ask it again.`,
    );
    const bad = await staff.post('/api/admin/polls', draft({ askedBefore: 'seven' }));
    expect(bad.statusCode).toBe(400);
    expect(await snapshotDatabase(t.db)).toEqual(before);
  });

  it('shows each run the other runs, oldest first; today’s joins only once voting has closed', async () => {
    const second = await seedPoll(t.db, {
      status: 'past',
      liveDate: '2026-10-01',
      options: ['Ban them', 'Allow them'],
      votes: [1, 3],
    });
    await staff.request({
      method: 'PUT',
      url: `/api/admin/polls/${second.id}`,
      payload: draft({ question: second.question, options: ['Ban them', 'Allow them'], liveDate: second.liveDate }),
    });
    // Today's third run, linked to the second: one series of three.
    const today = (
      await staff.post('/api/admin/polls', draft({ liveDate: '2026-11-21', askedBefore: second.pollNumber }))
    ).json<SavedPoll>();
    expect(today.message).toBe('Poll created and is now live!');

    const runs = async (pollNumber: number) =>
      (await new Visitor(t.app).get(`/api/polls/number/${pollNumber}`)).json<PollResults>().series;
    expect(await runs(first.pollNumber)).toEqual([
      {
        pollNumber: second.pollNumber,
        liveDate: '2026-10-01',
        totalVotes: 4,
        results: [
          { option: 'Ban them', votes: 1, percentage: 25 },
          { option: 'Allow them', votes: 3, percentage: 75 },
        ],
      },
    ]);
    expect((await runs(second.pollNumber)).map((run) => run.pollNumber)).toEqual([first.pollNumber]);

    // Today's poll: the earlier runs show with the results, never before voting.
    const visitor = new Visitor(t.app);
    const active = async () => (await visitor.get('/api/polls/active')).json<ActivePoll>();
    expect((await active()).series).toBeNull();
    await visitor.vote(today.poll.id, 0);
    expect((await active()).series?.map((run) => [run.pollNumber, run.liveDate])).toEqual([
      [first.pollNumber, '2026-09-01'],
      [second.pollNumber, '2026-10-01'],
    ]);

    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    expect((await runs(first.pollNumber)).map((run) => run.pollNumber)).toEqual([
      second.pollNumber,
      today.poll.pollNumber,
    ]);
    expect((await new Visitor(t.app).get('/api/polls/active')).json().series).toHaveLength(2);
  });

  it('shows a poll asked once no other runs', async () => {
    expect((await new Visitor(t.app).get(`/api/polls/number/${first.pollNumber}`)).json<PollResults>().series).toEqual(
      [],
    );
  });
});
