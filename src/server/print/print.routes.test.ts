import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertSetAsideVotes, seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

describe.each(testDatabaseKinds())('the print sheet and QR codes (%s)', (kind) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(kind, { env: { PUBLIC_URL: 'https://hottake.example.org' } });
  });
  afterEach(() => t.close());
  const get = (url: string) => new Visitor(t.app).get(url);

  it('prints a past poll with its results and today’s without them until the close', async () => {
    const past = await seedPoll(t.db, { question: 'Cursive?', status: 'past', liveDate: '2026-11-20', votes: [3, 1] });
    const today = await seedPoll(t.db, { question: 'Recess <longer>?', options: ['Yes', 'No'], votes: [7, 3] });
    const sheet = await get(`/poll-${past.pollNumber}/print`);
    expect(sheet.statusCode).toBe(200);
    expect(sheet.body).toContain('n = 4 votes · Poll closed');
    expect(sheet.body).toContain('75% · 3 votes');
    const csp = String(sheet.headers['content-security-policy']);
    expect(csp).toMatch(/style-src 'sha256-[\w+/=]+';/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(sheet.headers['x-frame-options']).toBe('SAMEORIGIN');

    const open = await get(`/poll-${today.pollNumber}/print`);
    expect(open.body).toContain('<p class="kicker">Vote today</p><h1>Recess &lt;longer&gt;?</h1>');
    expect(open.body).not.toMatch(/70%|7 votes/);
    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    expect((await get(`/poll-${today.pollNumber}/print`)).body).toContain('70% · 7 votes');
  });

  it('prints how many votes were set aside after review under n, with where to read why written out', async () => {
    const stuffed = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-19', votes: [3, 1] });
    await insertSetAsideVotes(t.db, stuffed, 2, 'discounted');
    const clean = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', votes: [3, 1] });
    const sheet = (await get(`/poll-${stuffed.pollNumber}/print`)).body;
    expect(sheet).toContain(
      '<p class="total">n = 4 votes · Poll closed</p><p class="set-aside">2 votes set aside after review. How we keep results honest: <a class="url" href="https://hottake.example.org/faq#honest-results">https://hottake.example.org/faq#honest-results</a></p>',
    );
    expect((await get(`/poll-${clean.pollNumber}/print`)).body).not.toMatch(/set aside|honest-results/);
  });

  it('draws a poll’s QR code as SVG, and answers 404 for polls not yet live or unknown', async () => {
    const past = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20' });
    const scheduled = await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-25' });
    const qr = await get(`/qr/poll-${past.pollNumber}.svg`);
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(qr.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    for (const path of [
      `/qr/poll-${scheduled.pollNumber}.svg`,
      '/qr/poll-99.svg',
      '/qr/poll-1.png',
      `/poll-${scheduled.pollNumber}/print`,
      '/poll-99/print',
    ]) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.json<{ code: string }>().code, path).toBe('not-found');
    }
  });
});
