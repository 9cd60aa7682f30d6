/**
 * The weighted line wherever a closed poll's result goes (issue 26): the API, the breakdown,
 * the embed, the print sheet, the open data; withheld with its reason when a rule says so;
 * never before the close. And GET /data/weighting.json. The pages the app draws are in
 * test/browser/weighted-results.test.ts.
 */
import Papa from 'papaparse';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivePoll, Breakdown, OpenPoll, PollResults } from '../../shared/api.js';
import { WITHHELD_REASON_TEXT } from '../../shared/weighting.js';
import { seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { createTestClient, type TestClient } from '../testing/test-client.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { seedOneCellOfTeachers, seedSkewedTeachers } from '../testing/weighting-fixtures.js';
import { weightingOpenData } from './targets.js';

// Every draw in the middle: each breakdown count is published as its nearest multiple of 5.
vi.mock('../breakdowns/rounding-draw.js', () => ({ roundingDraw: () => 0.5 }));

const PUBLIC_URL = 'https://hottake.example.org';
/** What seedSkewedTeachers' 200 teachers give, adjusted (raw: 56% and 44%), with each option's credibility interval. */
const ADJUSTED =
  /<p class="weighted">Adjusted to the mix of US K-12 teachers: 51% Yes \((\d+)–(\d+)%\), 49% No \((\d+)–(\d+)%\)\. 200 teachers; effective sample \d+; ranges are 95% credibility intervals\./;
/** The interval's ends as the page gives them: [Yes low, Yes high, No low, No high]. */
const shownInterval = (html: string) => ADJUSTED.exec(html)?.slice(1).map(Number);

let client: TestClient;
beforeAll(() => {
  client = createTestClient();
});
afterAll(() => client.remove());

describe.each(testDatabaseKinds())('the weighted line (%s)', (kind) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(kind, { clientDir: client.dir, env: { PUBLIC_URL } });
  });
  afterEach(() => t.close());
  const get = (url: string, headers: Record<string, string> = {}) =>
    new Visitor(t.app).request({ method: 'GET', url, headers });

  async function pastPolls() {
    const adjusted = await seedPoll(t.db, { options: ['Yes', 'No'], status: 'past', liveDate: '2026-11-19' });
    await seedSkewedTeachers(t.db, adjusted);
    const few = await seedPoll(t.db, {
      options: ['Yes', 'No'],
      status: 'past',
      liveDate: '2026-11-20',
      votes: [30, 9],
    });
    await seedOneCellOfTeachers(t.db, few, 20);
    return { adjusted, few };
  }

  it('gives a past poll its adjusted figures, under the raw ones, in the API, the embed and the print sheet', async () => {
    const { adjusted } = await pastPolls();
    const results = (await get(`/api/polls/number/${adjusted.pollNumber}`)).json<PollResults>();
    expect(results.results.map((r) => r.percentage)).toEqual([56, 44]);
    expect(results.weighted).toMatchObject({
      population: 'US K-12 teachers',
      percentages: [51, 49],
      votesInScope: 200,
    });
    if ('withheld' in results.weighted) throw new Error('withheld');
    expect(results.weighted.effectiveSample).toBeGreaterThanOrEqual(67);
    expect(results.weighted.effectiveSample).toBeLessThan(200);
    expect(results.weighted.designEffect).toBeCloseTo(200 / results.weighted.effectiveSample, 1);

    const embed = (await get(`/embed/poll-${adjusted.pollNumber}`)).body;
    // The interval is the API's, on the page as on the embed and the print sheet.
    if (!results.weighted.interval) throw new Error('no interval');
    const { low, high } = results.weighted.interval;
    expect(shownInterval(embed)).toEqual([low[0], high[0], low[1], high[1]]);
    expect(low[0]).toBeLessThan(51);
    expect(high[0]).toBeGreaterThan(51);
    expect(embed).toContain(`href="${PUBLIC_URL}/methods" target="_blank" rel="noopener">How we adjust<`);
    expect(embed.indexOf('<b>56% · 112 votes</b>')).toBeLessThan(embed.search(ADJUSTED));
    const sheet = (await get(`/poll-${adjusted.pollNumber}/print`)).body;
    expect(shownInterval(sheet)).toEqual([low[0], high[0], low[1], high[1]]);
    expect(sheet).toContain(`How we adjust: <a class="url" href="${PUBLIC_URL}/methods">${PUBLIC_URL}/methods</a>`);
    expect(sheet).not.toContain('±');
  });

  it('withholds the line with the rule that did, says it quietly on the API and nowhere in an embed or print', async () => {
    const { few } = await pastPolls();
    const results = (await get(`/api/polls/number/${few.pollNumber}`)).json<PollResults>();
    expect(results.weighted).toEqual({ withheld: 'too-few-votes', votesInScope: 20 });
    for (const page of [`/embed/poll-${few.pollNumber}`, `/poll-${few.pollNumber}/print`]) {
      const html = (await get(page)).body;
      expect(html).not.toContain('Adjusted to the mix');
      expect(html).not.toContain(WITHHELD_REASON_TEXT['too-few-votes']);
    }
    // 120 teachers, all in one cell: too narrow a mix to adjust.
    const narrow = await seedPoll(t.db, { options: ['Yes', 'No'], status: 'past', liveDate: '2026-11-18' });
    await seedOneCellOfTeachers(t.db, narrow, 120);
    expect((await get(`/api/polls/number/${narrow.pollNumber}`)).json<PollResults>().weighted).toEqual({
      withheld: 'small-category',
      votesInScope: 120,
    });
  });

  it("never shows today's line while voting is open, even to a voter; from the close, everywhere", async () => {
    const today = await seedPoll(t.db, { options: ['Yes', 'No'] });
    await seedSkewedTeachers(t.db, today);
    const voter = new Visitor(t.app);
    expect((await voter.post(`/api/polls/${today.id}/vote`, { optionIndex: 0 })).statusCode).toBe(201);
    const seen = (await voter.get('/api/polls/active')).json<ActivePoll>();
    expect(seen.results).not.toBeNull();
    expect(seen).not.toHaveProperty('weighted');
    for (const page of ['/embed/today', `/poll-${today.pollNumber}/print`]) {
      expect((await get(page)).body).not.toContain('Adjusted to the mix');
    }
    expect((await get(`/api/polls/${today.id}/breakdown`)).statusCode).toBe(403);
    expect(await t.db.selectFrom('poll_weighting').selectAll().execute()).toEqual([]);

    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    const closed = (await voter.get('/api/polls/active')).json<ActivePoll>();
    // 201 votes: the voter's own has no profile, so it is in the raw result only.
    expect(closed.totalVotes).toBe(201);
    expect(closed.weighted).toMatchObject({ percentages: [51, 49], votesInScope: 200 });
    expect((await get('/api/polls/active')).json<ActivePoll>().weighted).toEqual(closed.weighted);
    expect((await get('/embed/today')).body).toMatch(ADJUSTED);
    expect((await get(`/poll-${today.pollNumber}/print`)).body).toMatch(ADJUSTED);
  });

  it('gives each breakdown group shown its own line under the group gates, and keeps the k ≥ 10 rule', async () => {
    const { adjusted } = await pastPolls();
    const breakdown = (await get(`/api/polls/${adjusted.id}/breakdown`)).json<Breakdown>();
    const group = (dimension: string, value: string) =>
      breakdown.dimensions.find((d) => d.dimension === dimension)?.groups.find((g) => g.value === value);
    // High-school teachers: 80 votes, one grade level, so raked on region and years alone.
    expect(group('gradeBand', 'high')?.weighted).toMatchObject({ percentages: [80, 20], votesInScope: 80 });
    // Every classroom teacher: the poll's own scope, under the group gates.
    expect(group('role', 'classroom-teacher')?.weighted).toMatchObject({ percentages: [51, 49], votesInScope: 200 });
    // Each region holds 50 classroom teachers: at least 30, so a line of its own.
    expect(group('region', 'south')?.weighted).toMatchObject({ votesInScope: 50 });

    const few = await seedPoll(t.db, { options: ['Yes', 'No'], status: 'past', liveDate: '2026-11-18' });
    await seedOneCellOfTeachers(t.db, few, 12);
    const small = (await get(`/api/polls/${few.id}/breakdown`)).json<Breakdown>();
    expect(small.dimensions.find((d) => d.dimension === 'region')?.groups).toEqual([
      expect.objectContaining({
        value: 'south',
        totalVotes: 10, // 12, rounded to 5 as every count of a breakdown
        weighted: { withheld: 'too-few-votes', votesInScope: 10 },
      }),
    ]);
  });

  it('puts the line in the open data, JSON and CSV, with the rule that withheld it', async () => {
    const { adjusted, few } = await pastPolls();
    const { polls } = (await get('/data/polls.json')).json<{ polls: OpenPoll[] }>();
    const byNumber = new Map(polls.map((poll) => [poll.pollNumber, poll]));
    expect(byNumber.get(adjusted.pollNumber)?.weighted).toMatchObject({ percentages: [51, 49], votesInScope: 200 });
    expect(byNumber.get(few.pollNumber)?.weighted).toEqual({ withheld: 'too-few-votes', votesInScope: 20 });
    const api = (await get(`/api/polls/number/${adjusted.pollNumber}`)).json<PollResults>().weighted;
    if ('withheld' in api || !api.interval) throw new Error('no interval');
    expect(byNumber.get(adjusted.pollNumber)?.weighted).toEqual(api);

    const csv = (await get('/data/polls.csv')).body;
    const rows = Papa.parse<Record<string, string>>(csv, { header: true, comments: '#', skipEmptyLines: true }).data;
    const everyone = (n: number) => rows.filter((row) => row.poll_number === String(n) && row.dimension === 'all');
    expect(everyone(adjusted.pollNumber).map((row) => [row.percentage, row.weighted_percentage])).toEqual([
      ['56', '51'],
      ['44', '49'],
    ]);
    expect(everyone(adjusted.pollNumber)[0]).toMatchObject({ weighted_votes_in_scope: '200', weighted_withheld: '' });
    expect(
      everyone(adjusted.pollNumber).map((row) => [
        row.weighted_interval_low,
        row.weighted_interval_high,
        row.weighted_interval_design_effect,
      ]),
    ).toEqual(
      [0, 1].map((k) => [
        String(api.interval?.low[k]),
        String(api.interval?.high[k]),
        String(api.interval?.designEffects[k]),
      ]),
    );
    expect(everyone(few.pollNumber)[0]).toMatchObject({
      weighted_percentage: '',
      weighted_votes_in_scope: '20',
      weighted_effective_sample: '',
      weighted_withheld: 'too-few-votes',
      weighted_interval_low: '',
      weighted_interval_high: '',
      weighted_interval_design_effect: '',
    });
  });

  it('computes a closed poll’s line once and keeps it, until its counted votes change', async () => {
    const { adjusted } = await pastPolls();
    const first = (await get(`/api/polls/number/${adjusted.pollNumber}`)).json<PollResults>().weighted;
    const kept = await t.db.selectFrom('poll_weighting').selectAll().where('poll_id', '=', adjusted.id).execute();
    expect(kept.map((row) => [row.scope, row.counted_votes, JSON.parse(row.weighted) as unknown])).toEqual([
      ['poll', 200, first],
    ]);
    // The credibility interval is kept with the line, the same on SQLite and PostgreSQL: seeded by
    // the poll's id, from the votes in a fixed order whatever order the database reads them in.
    expect(first).toMatchObject({
      interval: { low: [41, 37], high: [63, 59], replicates: 500, seed: adjusted.id },
    });
    // Read again: the kept line, not raked again (the row is the same, its time too).
    await get(`/api/polls/number/${adjusted.pollNumber}`);
    expect(await t.db.selectFrom('poll_weighting').selectAll().where('poll_id', '=', adjusted.id).execute()).toEqual(
      kept,
    );
    // A kept line whose poll's count moved since (a vote written after the read) is computed again.
    await t.db
      .updateTable('poll_weighting')
      .set({ weighted: '{"withheld":"not-converged","votesInScope":0}' })
      .execute();
    expect((await get(`/api/polls/number/${adjusted.pollNumber}`)).json<PollResults>().weighted).toEqual({
      withheld: 'not-converged',
      votesInScope: 0,
    });
    await t.db.updateTable('poll_weighting').set({ counted_votes: 199 }).execute();
    expect((await get(`/api/polls/number/${adjusted.pollNumber}`)).json<PollResults>().weighted).toEqual(first);
  });

  it('serves the targets and rules at /data/weighting.json, as open data', async () => {
    const response = await get('/data/weighting.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.headers['link']).toContain('rel="license"');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.json()).toEqual(JSON.parse(JSON.stringify(weightingOpenData())));
    const etag = String(response.headers.etag);
    expect((await get('/data/weighting.json', { 'if-none-match': etag })).statusCode).toBe(304);
    const gzipped = await get('/data/weighting.json', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
  });

  it('answers /methods as a page of the site', async () => {
    const page = await get('/methods');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<title>How we adjust results');
  });
});
