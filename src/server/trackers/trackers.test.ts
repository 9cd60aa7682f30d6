/** Trackers (issue 38, items 2 and 3): series staff build and name, read by anyone, in the API and the open data. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PollResults, SavedPoll } from '../../shared/api.js';
import type { AdminSeries } from '../../shared/series-schemas.js';
import { changeSentence, type Tracker, type TrackerSummary } from '../../shared/trackers.js';
import { seedPoll } from '../testing/fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { signedInStaff } from '../testing/staff.js';
import { createTestApp, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

describe.each(testDatabaseKinds())('trackers (%s)', (kind) => {
  let t: TestApp;
  let staff: Visitor;
  let visitor: Visitor;

  beforeEach(async () => {
    t = await createTestApp(kind, { now: newYorkTime('2026-11-21', '10:00') });
    staff = new Visitor(t.app, { origin: t.config.site.publicUrl });
    await staff.post('/api/admin/login', TEST_SIGN_IN);
    visitor = new Visitor(t.app);
  });
  afterEach(() => t.close());

  /** A run of "Phones in class?" on `liveDate`, linked by staff to `askedBefore`, then moved into the past with its votes. */
  async function run(liveDate: string, votes: number[], askedBefore: number | null, question = 'Phones in class?') {
    const seeded = await seedPoll(t.db, {
      question,
      options: ['Ban them', 'Allow them'],
      status: 'past',
      liveDate,
      votes,
    });
    if (askedBefore !== null) {
      const linked = await staff.request({
        method: 'PUT',
        url: `/api/admin/polls/${seeded.id}`,
        payload: { question, options: ['Ban them', 'Allow them'], liveDate, askedBefore },
      });
      expect(linked.statusCode, linked.body).toBe(200);
    }
    return seeded;
  }

  it('lists a question once it has run twice, the newest first, and shows each run’s date, votes and results', async () => {
    const first = await run('2026-03-01', [11, 9], null);
    expect((await visitor.get('/api/trackers')).json()).toEqual([]);
    const second = await run('2026-06-01', [6, 14], first.pollNumber);
    const other = await run('2026-01-10', [5, 5], null, 'Homework?');
    await run('2026-02-10', [3, 7], other.pollNumber, 'Homework?');

    const list = (await visitor.get('/api/trackers')).json<TrackerSummary[]>();
    expect(list.map((tracker) => [tracker.slug, tracker.name, tracker.runs.map((r) => r.pollNumber)])).toEqual([
      ['phones-in-class', 'Phones in class?', [first.pollNumber, second.pollNumber]],
      ['homework', 'Homework?', [other.pollNumber, other.pollNumber + 1]],
    ]);

    const tracker = (await visitor.get('/api/trackers/phones-in-class')).json<Tracker>();
    expect(tracker.options).toEqual(['Ban them', 'Allow them']);
    expect(tracker.runs.map(({ liveDate, totalVotes, percentages }) => [liveDate, totalVotes, percentages])).toEqual([
      ['2026-03-01', 20, [55, 45]],
      ['2026-06-01', 20, [30, 70]],
    ]);
    // Too few votes to adjust: no line and no band, and the change says nothing of bands.
    expect(tracker.runs.map((r) => r.adjusted)).toEqual([null, null]);
    expect(tracker.changes.map(changeSentence)).toEqual([
      '“Ban them” fell from 55% to 30%.',
      '“Allow them” rose from 45% to 70%.',
    ]);
    // The poll page links to its tracker.
    const page = (await visitor.get(`/api/polls/number/${first.pollNumber}`)).json<PollResults>();
    expect(page.tracker).toEqual({ slug: 'phones-in-class', name: 'Phones in class?' });
  });

  it('shows today’s run only once voting has closed', async () => {
    const first = await run('2026-10-01', [4, 6], null);
    const today = await seedPoll(t.db, {
      question: 'Phones in class?',
      options: ['Ban them', 'Allow them'],
      votes: [8, 2],
    });
    await t.db.updateTable('polls').set({ series_id: first.id }).where('id', 'in', [first.id, today.id]).execute();
    await t.db
      .insertInto('poll_series')
      .values({ id: first.id, name: 'Phones', slug: 'phones', updated_at: new Date().toISOString() })
      .execute();
    expect((await visitor.get('/api/trackers')).json()).toEqual([]);
    expect((await visitor.get('/api/trackers/phones')).statusCode).toBe(404);
    t.clock.set(newYorkTime('2026-11-21', '20:30'));
    const response = await visitor.get('/api/trackers/phones');
    expect(response.statusCode, response.body).toBe(200);
    const tracker = response.json<Tracker>();
    expect(tracker.runs.map((r) => r.percentages)).toEqual([
      [40, 60],
      [80, 20],
    ]);
  });

  it('answers an unknown or malformed tracker with JSON, never a 500', async () => {
    const unknown = await visitor.get('/api/trackers/no-such-thing');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Tracker not found', code: 'not-found' });
    const malformed = await visitor.get('/api/trackers/Not%20A%20Slug');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('validation');
    expect((await visitor.get('/data/trackers/nothing.json')).statusCode).toBe(404);
    expect((await visitor.get('/data/trackers/x.xml')).statusCode).toBe(404);
    expect((await visitor.get('/og/tracker-nothing.png')).statusCode).toBe(404);
  });

  it('publishes each tracker as open data, JSON and CSV, under the licence', async () => {
    const first = await run('2026-03-01', [11, 9], null);
    await run('2026-06-01', [6, 14], first.pollNumber);
    const json = await visitor.get('/data/trackers/phones-in-class.json');
    expect(json.statusCode).toBe(200);
    expect(json.headers['access-control-allow-origin']).toBe('*');
    expect(json.headers.link).toContain('creativecommons.org');
    const body = json.json<{ runs: { url: string; percentages: number[] }[]; license: { name: string } }>();
    expect(body.license.name).toBe('CC BY 4.0');
    expect(body.runs.map((r) => r.percentages)).toEqual([
      [55, 45],
      [30, 70],
    ]);
    expect(body.runs[0]?.url).toBe(`${t.config.site.publicUrl}/poll-${first.pollNumber}`);
    const csv = await visitor.get('/data/trackers/phones-in-class.csv');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n').slice(0, 3)).toEqual([
      'poll_number,date,total_votes,option_index,option,percentage,adjusted_percentage,adjusted_interval_low,adjusted_interval_high',
      `${first.pollNumber},2026-03-01,20,0,Ban them,55,,,`,
      `${first.pollNumber},2026-03-01,20,1,Allow them,45,,,`,
    ]);
    const etag = json.headers.etag as string;
    expect(
      (
        await visitor.request({
          method: 'GET',
          url: '/data/trackers/phones-in-class.json',
          headers: { 'if-none-match': etag },
        })
      ).statusCode,
    ).toBe(304);
  });

  it('lets staff rename a series and move its address, audited, and refuses a taken or malformed one, changing nothing', async () => {
    const first = await run('2026-03-01', [11, 9], null);
    await run('2026-06-01', [6, 14], first.pollNumber);
    const other = await run('2026-01-10', [5, 5], null, 'Homework?');
    await run('2026-02-10', [3, 7], other.pollNumber, 'Homework?');
    const listed = (await staff.get('/api/admin/series')).json<AdminSeries[]>();
    expect(listed.map((s) => [s.id, s.slug, s.runs.map((r) => [r.pollNumber, r.status])])).toEqual([
      [
        other.id,
        'homework',
        [
          [other.pollNumber, 'past'],
          [other.pollNumber + 1, 'past'],
        ],
      ],
      [
        first.id,
        'phones-in-class',
        [
          [first.pollNumber, 'past'],
          [first.pollNumber + 1, 'past'],
        ],
      ],
    ]);

    const renamed = await staff.request({
      method: 'PUT',
      url: `/api/admin/series/${first.id}`,
      payload: { name: '  Phones   in class ', slug: 'phones' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await visitor.get('/api/trackers/phones')).json<Tracker>().name).toBe('Phones in class');
    expect((await visitor.get('/api/trackers/phones-in-class')).statusCode).toBe(404);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'summary'])
      .where('action', '=', 'series.edit')
      .execute();
    expect(audit).toEqual([
      {
        action: 'series.edit',
        target: `series ${first.id}`,
        summary: 'Named the series "Phones in class" at /trackers/phones',
      },
    ]);

    const moderator = await signedInStaff(t, 'moderator');
    const before = await snapshotDatabase(t.db);
    const put = (id: number, payload: object | string) =>
      staff.request({ method: 'PUT', url: `/api/admin/series/${id}`, payload });
    const taken = await put(first.id, { name: 'Phones', slug: 'homework' });
    expect([taken.statusCode, taken.json()]).toEqual([
      409,
      { message: 'Another series already has that address.', code: 'conflict' },
    ]);
    for (const payload of [
      { name: 'Phones', slug: 'Phones!' },
      { name: '', slug: 'phones' },
      { name: 'x'.repeat(61), slug: 'p' },
      [],
    ]) {
      const refused = await put(first.id, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await put(999_999, { name: 'Gone', slug: 'gone' })).statusCode).toBe(404);
    const forbidden = await moderator.visitor.request({
      method: 'PUT',
      url: `/api/admin/series/${first.id}`,
      payload: { name: 'Mine', slug: 'mine' },
    });
    expect(forbidden.statusCode).toBe(403);
    expect((await moderator.visitor.get('/api/admin/series')).statusCode).toBe(403);
    expect(await snapshotDatabase(t.db)).toEqual(before);
    expect((await visitor.get('/api/admin/series')).statusCode).toBe(401);
  });

  it('makes a new run of a series from the poll form: the next run joins the same tracker', async () => {
    const first = await run('2026-03-01', [11, 9], null);
    const second = await run('2026-06-01', [6, 14], first.pollNumber);
    const created = await staff.post('/api/admin/polls', {
      question: 'Phones in class?',
      options: ['Ban them', 'Allow them'],
      liveDate: '2026-12-01',
      askedBefore: second.pollNumber,
    });
    expect(created.statusCode).toBe(201);
    const listed = (await staff.get('/api/admin/series')).json<AdminSeries[]>();
    expect(listed).toHaveLength(1);
    expect(listed[0]?.runs.map((r) => [r.pollNumber, r.status])).toEqual([
      [first.pollNumber, 'past'],
      [second.pollNumber, 'past'],
      [created.json<SavedPoll>().poll.pollNumber, 'scheduled'],
    ]);
    // A scheduled run is no part of the tracker yet.
    expect((await visitor.get('/api/trackers/phones-in-class')).json<Tracker>().runs).toHaveLength(2);
  });
});
