/** The demo set shows every part of the site: breakdowns with real differences, and a series. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivePoll, Breakdown, IntegrityReport, PastPoll, PollResults } from '../../shared/api.js';
import { createTestApp, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { Visitor } from '../testing/visitor.js';
import type { Tracker, TrackerSummary } from '../../shared/trackers.js';
import { STAFF_MEETING, STUFFED_BURST } from './networks.js';
import { seedDemo } from './seed.js';

describe('the demo data', () => {
  let t: TestApp;
  let past: PastPoll[];

  beforeAll(async () => {
    t = await createTestApp('sqlite', { now: newYorkTime('2026-11-21', '20:30') });
    await seedDemo(t.db, t.clock.now(), t.config.site);
    past = (await new Visitor(t.app).get('/api/polls')).json<PastPoll[]>();
  });
  afterAll(() => t.close());

  const breakdownOf = async (question: RegExp) => {
    const poll = past.find((p) => question.test(p.question));
    if (!poll) throw new Error(`no demo poll matches ${question}`);
    return (await new Visitor(t.app).get(`/api/polls/${poll.id}/breakdown`)).json<Breakdown>();
  };

  it('has leaders and classroom teachers disagree on merit pay', async () => {
    const role = (await breakdownOf(/merit pay/)).dimensions.find((d) => d.dimension === 'role');
    const yes = (group: string) => role?.groups.find((g) => g.value === group)?.results[0]?.percentage ?? NaN;
    expect(yes('school-leader') - yes('classroom-teacher')).toBeGreaterThan(15);
  });

  it('lists most groups, withholds some, and counts voters who said nothing', async () => {
    const breakdown = await breakdownOf(/four-day school week/);
    const region = breakdown.dimensions.find((d) => d.dimension === 'region');
    expect(region?.groups.map((g) => g.value)).toEqual(['northeast', 'midwest', 'south', 'west', 'outside-us']);
    expect(region?.notSaidVotes).toBeGreaterThan(0);
    const small = past.reduce((a, b) => (a.totalVotes < b.totalVotes ? a : b));
    const smallBreakdown = (await new Visitor(t.app).get(`/api/polls/${small.id}/breakdown`)).json<Breakdown>();
    expect(smallBreakdown.dimensions.some((d) => d.withheldVotes > 0)).toBe(true);
  });

  it('gives most past polls a weighted line, and withholds it on the smallest, saying why', async () => {
    const lines = await Promise.all(
      past.map(async (poll) => {
        const results = (await new Visitor(t.app).get(`/api/polls/number/${poll.pollNumber}`)).json<PollResults>();
        return { poll, weighted: results.weighted };
      }),
    );
    const shown = lines.filter(({ weighted }) => !('withheld' in weighted));
    const withheld = lines.filter(({ weighted }) => 'withheld' in weighted);
    expect(shown.length).toBeGreaterThanOrEqual(8);
    expect(withheld.map(({ weighted }) => weighted)).toContainEqual(
      expect.objectContaining({ withheld: 'too-few-votes' }),
    );
    // The smallest poll is among those withheld.
    const smallest = lines.reduce((a, b) => (a.poll.totalVotes < b.poll.totalVotes ? a : b));
    expect(smallest.weighted).toMatchObject({ withheld: 'too-few-votes' });
    // Today's poll, closed, has one too, where high-school teachers lean away from elementary ones.
    const today = (await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>();
    expect(today.weighted).toMatchObject({ population: 'US K-12 teachers' });
  });

  it('asks today’s question for the fifth time, and each run shows the others', async () => {
    const today = (await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>();
    expect(today.series?.map((run) => run.totalVotes)).toEqual([318, 341, 377, 455]);
    const [first] = today.series ?? [];
    const firstRun = (await new Visitor(t.app).get(`/api/polls/number/${first?.pollNumber}`)).json<PollResults>();
    expect(firstRun.question).toBe(today.question);
    // After the close, today's run joins the series of the earlier ones.
    expect(firstRun.series.map((run) => run.pollNumber)).toHaveLength(4);
  });

  it('holds two trackers of four or more runs, numbered in date order, for a newcomer to see at once', async () => {
    const trackers = (await new Visitor(t.app).get('/api/trackers')).json<TrackerSummary[]>();
    expect(trackers.map((tracker) => tracker.runs.length)).toEqual([5, 4]);
    for (const tracker of trackers) {
      const numbers = tracker.runs.map((run) => run.pollNumber);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      const full = (await new Visitor(t.app).get(`/api/trackers/${tracker.slug}`)).json<Tracker>();
      expect(full.runs.filter((run) => run.adjusted?.low).length).toBeGreaterThanOrEqual(3);
    }
  });

  it('gives staff one stuffed burst on today’s poll to review, beside a staff meeting and ordinary networks', async () => {
    const staff = new Visitor(t.app, { origin: t.config.site.publicUrl });
    await staff.post('/api/admin/login', TEST_SIGN_IN);
    const today = (await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>();
    const report = (await staff.get(`/api/admin/polls/${today.id}/integrity`)).json<IntegrityReport>();

    const [burst, meeting] = ['challenge', 'watch'].map((state) => report.bursts.find((b) => b.state === state));
    expect(burst?.votes).toEqual({
      counted: STUFFED_BURST.counted,
      held: STUFFED_BURST.votes - STUFFED_BURST.counted,
      discounted: 0,
    });
    // Six minutes, one vote every 0.9 s.
    expect(Date.parse(burst?.to ?? '') - Date.parse(burst?.from ?? '')).toBeLessThan(6 * 60_000 + 1000);
    const stuffer = report.buckets.find((b) => b.bucket === burst?.bucket);
    expect(stuffer).toMatchObject({ votes: 400, withoutBallotShare: 1, freshCookieShare: 1, medianPageMs: null });
    expect(stuffer?.topOption?.index).toBe(STUFFED_BURST.option);
    expect(stuffer?.topOption?.share).toBeGreaterThan(0.9);
    expect(stuffer?.topOption?.shareElsewhere).toBeLessThan(0.1);
    // Without it, "No restrictions needed" falls back to a few percent.
    expect(burst?.preview.results[STUFFED_BURST.option]?.percentage).toBeLessThan(10);
    expect(report.results[STUFFED_BURST.option]?.percentage).toBeGreaterThan(30);

    expect(meeting?.votes.counted).toBe(STAFF_MEETING.votes);
    expect(report.marks.map((mark) => mark.state).sort()).toEqual(['challenge', 'watch', 'watch']);
    // Ordinary networks look like people: most votes carry a ballot, seconds after the page.
    const ordinary = report.buckets.filter((b) => b.state === null);
    expect(ordinary.length).toBeGreaterThan(10);
    for (const network of ordinary) {
      expect(network.medianPageMs ?? 0).toBeGreaterThan(2_000);
      expect(network.withoutBallotShare).toBeLessThan(0.5);
    }
    expect(report.votesWithoutBucket).toBe(0);
  });

  it('has staff notes on past polls and a digest week with its page', async () => {
    const noted: PollResults[] = [];
    for (const poll of past) {
      const results = (await new Visitor(t.app).get(`/api/polls/number/${poll.pollNumber}`)).json<PollResults>();
      if (results.note) noted.push(results);
    }
    expect(noted.length).toBeGreaterThanOrEqual(3);
    expect(noted.some((poll) => poll.note?.html.includes('<a href="https://'))).toBe(true);
    // Saturday 21 November: last week's digest went out, so its page and feed entry are there.
    const page = await new Visitor(t.app).get('/week/2026-W46');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('What we learned');
    expect((await new Visitor(t.app).get('/feed.xml')).body).toContain('/week/2026-W46</id>');
  });
});
