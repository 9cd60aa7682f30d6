/**
 * The API says how many votes were set aside after review (held or discounted) wherever it gives
 * results, and counts them in no total, result or breakdown.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivePoll, Breakdown, PastPoll, PollResults } from '../../shared/api.js';
import { insertSetAsideVotes, seedPoll, seedProfiledVotes } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

// Every draw in the middle: each breakdown count is published as its nearest multiple of 5.
vi.mock('../breakdowns/rounding-draw.js', () => ({ roundingDraw: () => 0.5 }));

describe.each(testDatabaseKinds())('votes set aside, in the API (%s)', (kind) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(kind);
  });
  afterEach(() => t.close());

  const get = <T>(url: string) => new Visitor(t.app).get(url).then((response) => response.json<T>());

  it('are counted beside the results of past polls, in the archive and in the breakdown, and in none of their figures', async () => {
    const stuffed = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-19', options: ['Yes', 'No'] });
    await seedProfiledVotes(t.db, stuffed, [{ profile: { role: 'classroom-teacher' }, votes: [8, 4] }]);
    await insertSetAsideVotes(t.db, stuffed, 5, 'held');
    await insertSetAsideVotes(t.db, stuffed, 2, 'discounted');
    const clean = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', votes: [1, 1] });

    expect(await get<PollResults>(`/api/polls/number/${stuffed.pollNumber}`)).toMatchObject({
      totalVotes: 12,
      setAsideVotes: 7,
      results: [
        { option: 'Yes', votes: 8, percentage: 67 },
        { option: 'No', votes: 4, percentage: 33 },
      ],
    });
    expect(await get<PollResults>(`/api/polls/number/${clean.pollNumber}`)).toMatchObject({
      totalVotes: 2,
      setAsideVotes: 0,
    });
    const archive = await get<PastPoll[]>('/api/polls');
    expect(archive.map((poll) => [poll.pollNumber, poll.totalVotes, poll.setAsideVotes])).toEqual([
      [clean.pollNumber, 2, 0],
      [stuffed.pollNumber, 12, 7],
    ]);
    const breakdown = await get<Breakdown>(`/api/polls/${stuffed.id}/breakdown`);
    expect(breakdown).toMatchObject({ totalVotes: 12, setAsideVotes: 7 });
    expect(breakdown.dimensions.find((d) => d.dimension === 'role')?.groups).toMatchObject([
      { value: 'classroom-teacher', totalVotes: 10 }, // 12, rounded to 5
    ]);
  });

  it('are not published while voting on today’s poll is open (silent to stuffers), and are after the close', async () => {
    const today = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [2, 1] });
    await insertSetAsideVotes(t.db, today, 4);
    expect(await get<ActivePoll>('/api/polls/active')).toMatchObject({
      totalVotes: 3,
      setAsideVotes: null,
      results: null,
    });
    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    expect(await get<ActivePoll>('/api/polls/active')).toMatchObject({ totalVotes: 3, setAsideVotes: 4 });
  });
});
