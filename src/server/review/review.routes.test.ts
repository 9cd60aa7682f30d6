import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  ActivePoll,
  ApiError,
  Breakdown,
  ChallengeChange,
  IntegrityChange,
  IntegrityReport,
  PollResults,
} from '../../shared/api.js';
import { INTEGRITY_REASON_MAX_LENGTH } from '../../shared/limits.js';
import { PAST_POLLS_VERSION_MAX_AGE_MS } from '../open-data/open-data.service.js';
import type { PollRecord } from '../polls/poll.js';
import { seedPoll } from '../testing/fixtures.js';
import { flagBucket, insertReviewVotes, type ReviewVote } from '../testing/review-fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestApp, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

// Every draw in the middle: each breakdown count is published as its nearest multiple of 5.
vi.mock('../breakdowns/rounding-draw.js', () => ({ roundingDraw: () => 0.5 }));

const STUFFER = '3f9a2c0011223344';
const SCHOOL = 'a1b2c3d4e5f60718';
const at = (time: string) => `2026-11-21T${time}.000Z`;
const seconds = (start: string, n: number) => new Date(Date.parse(at(start)) + n * 1000).toISOString();

describe.each(testDatabaseKinds())('staff review calls (%s)', (kind) => {
  let t: TestApp;
  let staff: Visitor;

  beforeEach(async () => {
    t = await createTestApp(kind);
    staff = new Visitor(t.app, { origin: t.config.site.publicUrl });
    expect((await staff.post('/api/admin/login', TEST_SIGN_IN)).statusCode).toBe(200);
  });
  afterEach(() => t.close());

  /**
   * A poll with a school of 30 classroom teachers (20 "Yes", 10 "No") and a stuffer's 40
   * counted votes for "No" in 40 seconds, as school leaders, then 5 held; flagged.
   */
  async function seedAttack(status: 'active' | 'past' = 'active'): Promise<PollRecord> {
    const poll = await seedPoll(t.db, {
      options: ['Yes', 'No'],
      status,
      liveDate: status === 'past' ? '2026-11-20' : '2026-11-21',
    });
    const school: ReviewVote[] = Array.from({ length: 30 }, (_, i) => ({
      pollId: poll.id,
      optionIndex: i < 20 ? 0 : 1,
      createdAt: seconds('13:00:00', i * 60),
      bucket: SCHOOL,
      profile: { role: 'classroom-teacher' },
    }));
    const stuffer: ReviewVote[] = Array.from({ length: 45 }, (_, i) => ({
      pollId: poll.id,
      optionIndex: 1,
      createdAt: seconds('14:00:00', i),
      status: i < 40 ? 'counted' : 'held',
      bucket: STUFFER,
      pageMs: null,
      cookieAgeS: null,
      profile: { role: 'school-leader' },
    }));
    await insertReviewVotes(t.db, [...school, ...stuffer]);
    await flagBucket(t.db, {
      pollId: poll.id,
      bucket: STUFFER,
      state: 'challenge',
      firstFlaggedAt: at('14:00:20'),
      challengedSince: at('14:00:40'),
      challengedUntil: at('14:31:00'),
      updatedAt: at('14:00:44'),
      reasons: 'volume,skew,no-ballot',
    });
    return poll;
  }

  const discountBody = (overrides: Record<string, unknown> = {}) => ({
    bucket: STUFFER,
    from: at('14:00:00'),
    to: at('14:00:44'),
    reason: 'Forty votes in forty seconds for one option, none with a ballot',
    ...overrides,
  });

  const report = async (pollId: number) => {
    const response = await staff.get(`/api/admin/polls/${pollId}/integrity`);
    expect(response.statusCode).toBe(200);
    return response.json<IntegrityReport>();
  };

  it('reports a poll: its minutes, networks, flagged burst with its preview, and log', async () => {
    const poll = await seedAttack();
    const body = await report(poll.id);
    expect(body.votes).toEqual({ counted: 70, held: 5, discounted: 0 });
    expect(body.buckets.map((b) => [b.label, b.votes, b.state])).toEqual([
      ['NET-3F9A2C', 45, 'challenge'],
      ['NET-A1B2C3', 30, null],
    ]);
    expect(body.bursts).toHaveLength(1);
    expect(body.bursts[0]?.preview.results.map((r) => [r.votes, r.percentage])).toEqual([
      [20, 67],
      [10, 33],
    ]);
    expect(JSON.stringify(body)).not.toMatch(/\d+\.\d+\.\d+\.\d+/);
    expect((await staff.get('/api/admin/polls/999/integrity')).json()).toEqual({
      message: 'Poll not found',
      code: 'not-found',
    });
    expect((await staff.get('/api/admin/polls/abc/integrity')).statusCode).toBe(400);
  });

  it('discounts a burst (201, the logged action), and every result shows it; restoring brings it all back', async () => {
    const poll = await seedAttack('past');
    // Today's breakdowns are closed until the close time; this past poll's are open.
    const visitor = new Visitor(t.app);
    const results = async () => (await visitor.get(`/api/polls/number/${poll.pollNumber}`)).json<PollResults>();
    const breakdown = async () => (await visitor.get(`/api/polls/${poll.id}/breakdown`)).json<Breakdown>();
    const openData = async () => {
      t.clock.advance(PAST_POLLS_VERSION_MAX_AGE_MS);
      return (await visitor.get('/data/polls.json')).json<{ polls: { totalVotes: number }[] }>().polls[0]?.totalVotes;
    };
    const before = { results: await results(), breakdown: await breakdown(), openData: await openData() };
    expect(before.results).toMatchObject({ totalVotes: 70, setAsideVotes: 5 });
    expect(before.breakdown.dimensions[0]?.groups.map((g) => g.value)).toEqual(['classroom-teacher', 'school-leader']);

    const response = await staff.post(`/api/admin/polls/${poll.id}/discounts`, discountBody());
    expect(response.statusCode).toBe(201);
    const { message, action } = response.json<IntegrityChange>();
    expect(message).toBe('40 votes set aside.');
    // The person who acted (the test's owner, named after ADMIN_EMAIL), in the log and in the audit log.
    expect(action).toMatchObject({ kind: 'discount', votes: 40, actor: 'owner', label: 'NET-3F9A2C' });
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'integrity.discount').execute();
    expect(audit).toMatchObject([{ actor_name: 'owner', actor_role: 'owner', target: `poll ${poll.id}` }]);

    expect(await results()).toMatchObject({
      totalVotes: 30,
      setAsideVotes: 45,
      results: [
        { option: 'Yes', votes: 20 },
        { option: 'No', votes: 10 },
      ],
    });
    // The breakdown was published at the close: its groups stay as they were, and it says why
    // everyone's result moved (issue 34, item 14; breakdowns.published.test.ts).
    const afterDiscount = await breakdown();
    expect(afterDiscount).toEqual({
      ...before.breakdown,
      correction:
        'Votes were reviewed after voting closed: the result for everyone now counts 30 votes. ' +
        'The groups stay as they were published at the close, so that no change can be traced to a group.',
    });
    expect(await openData()).toBe(30);
    expect((await report(poll.id)).log.map((entry) => entry.kind)).toEqual(['discount']);

    const restored = await staff.delete(`/api/admin/polls/${poll.id}/discounts/${action.id}`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json<IntegrityChange>()).toMatchObject({
      message: '40 votes counted again.',
      action: { kind: 'restore', undoesId: action.id, votes: 40 },
    });
    expect(await results()).toEqual(before.results);
    expect(await breakdown()).toEqual(before.breakdown);
    expect(await openData()).toBe(70);

    const again = await staff.delete(`/api/admin/polls/${poll.id}/discounts/${action.id}`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'These votes were already restored.', code: 'conflict' });
    expect((await staff.delete(`/api/admin/polls/${poll.id}/discounts/${action.id + 1}`)).json()).toEqual({
      message: 'This poll has no such discount.',
      code: 'not-found',
    });
  });

  it('shows today’s voters the discounted results at once, and how many were set aside only after the close', async () => {
    const poll = await seedAttack();
    const voter = new Visitor(t.app);
    expect((await voter.vote(poll.id, 0)).statusCode).toBe(201);
    const today = async () => (await voter.get('/api/polls/active')).json<ActivePoll>();
    expect(await today()).toMatchObject({ totalVotes: 71, setAsideVotes: null });
    await staff.post(`/api/admin/polls/${poll.id}/discounts`, discountBody());
    expect(await today()).toMatchObject({ totalVotes: 31, setAsideVotes: null, userVoted: true, userVoteOption: 0 });
    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    expect(await today()).toMatchObject({ totalVotes: 31, setAsideVotes: 45 });
  });

  it('refuses bad input with 400 and every message, an unknown poll with 404, and changes nothing', async () => {
    const poll = await seedAttack();
    const before = await snapshotDatabase(t.db);
    const refusals: [unknown, number, string][] = [
      [discountBody({ reason: '' }), 400, 'Please give a reason for setting these votes aside.'],
      [discountBody({ reason: '   ' }), 400, 'Please give a reason for setting these votes aside.'],
      [discountBody({ reason: undefined }), 400, 'The reason must be text.'],
      [
        discountBody({ reason: 'x'.repeat(INTEGRITY_REASON_MAX_LENGTH + 1) }),
        400,
        'The reason can be at most 500 characters.',
      ],
      [
        discountBody({ reason: 'tab\there' }),
        400,
        'The reason contains an invisible control character. Please remove it and try again.',
      ],
      [
        discountBody({ bucket: '10.0.0.0/24' }),
        400,
        "bucket must be a network's 16-character code, as the integrity report gives it.",
      ],
      [discountBody({ from: 'yesterday' }), 400, 'from must be a time such as 2026-11-21T15:04:05Z.'],
      [discountBody({ to: '2026-13-45T99:00:00Z' }), 400, 'to is not a real time.'],
      [discountBody({ from: at('14:10:00'), to: at('14:00:00') }), 400, 'from must not be after to.'],
      [[], 400, 'The request body must be a JSON object.'],
      [
        discountBody({ from: at('18:00:00'), to: at('19:00:00') }),
        409,
        'That network has no counted votes in that time, so nothing was set aside. Reload the report.',
      ],
    ];
    for (const [body, status, message] of refusals) {
      const response = await staff.post(`/api/admin/polls/${poll.id}/discounts`, body as object);
      expect(response.statusCode, message).toBe(status);
      expect(response.json<ApiError>().message).toBe(message);
      expect(response.json<ApiError>().code).toBe(status === 400 ? 'validation' : 'conflict');
    }
    const unknown = await staff.post('/api/admin/polls/999/discounts', discountBody());
    expect(unknown.json()).toEqual({ message: 'Poll not found', code: 'not-found' });
    expect(
      (await staff.put(`/api/admin/polls/${poll.id}/challenge`, { everyone: 'yes' })).json<ApiError>().message,
    ).toBe('everyone must be true or false.');
    expect((await staff.post(`/api/admin/polls/${poll.id}/held/release`, { bucket: 'nope' })).statusCode).toBe(400);
    expect((await staff.delete(`/api/admin/polls/${poll.id}/discounts/0`)).statusCode).toBe(400);
    expect((await staff.put('/api/admin/polls/999/challenge', { everyone: true })).statusCode).toBe(404);
    expect((await staff.post('/api/admin/polls/999/held/release')).statusCode).toBe(404);
    expect(await snapshotDatabase(t.db)).toEqual(before);
  });

  it('releases one network’s held votes, or every held vote without a body', async () => {
    const poll = await seedAttack();
    const one = await staff.post(`/api/admin/polls/${poll.id}/held/release`, {
      bucket: STUFFER.toUpperCase(),
      reason: 'Checked',
    });
    expect(one.statusCode).toBe(200);
    expect(one.json<IntegrityChange>()).toMatchObject({
      message: '5 votes released and counted.',
      action: { kind: 'release', bucket: STUFFER, votes: 5, reason: 'Checked' },
    });
    const none = await staff.post(`/api/admin/polls/${poll.id}/held/release`);
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ message: 'There are no held votes to release.', code: 'conflict' });
    await insertReviewVotes(t.db, [
      { pollId: poll.id, optionIndex: 0, createdAt: at('14:30:00'), status: 'held', bucket: SCHOOL },
    ]);
    expect((await staff.post(`/api/admin/polls/${poll.id}/held/release`)).json<IntegrityChange>().action.votes).toBe(1);
    expect((await report(poll.id)).votes).toEqual({ counted: 76, held: 0, discounted: 0 });
  });

  it('switches the challenge for everyone on and off, and says so', async () => {
    const poll = await seedAttack();
    const on = await staff.put(`/api/admin/polls/${poll.id}/challenge`, { everyone: true });
    expect(on.json<ChallengeChange>()).toMatchObject({
      message: 'Every vote on this poll now needs a proof of work.',
      challengeEveryone: true,
      action: { kind: 'challenge-on' },
    });
    expect(
      (await staff.put(`/api/admin/polls/${poll.id}/challenge`, { everyone: true })).json<ChallengeChange>().action,
    ).toBeNull();
    expect((await report(poll.id)).challengeEveryone).toBe(true);
    const off = await staff.put(`/api/admin/polls/${poll.id}/challenge`, { everyone: false });
    expect(off.json<ChallengeChange>()).toMatchObject({ challengeEveryone: false, action: { kind: 'challenge-off' } });
    const past = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-19' });
    const refused = await staff.put(`/api/admin/polls/${past.id}/challenge`, { everyone: true });
    expect(refused.statusCode).toBe(409);
    t.clock.set(newYorkTime('2026-11-21', '10:00'));
  });
});
