import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertSetAsideVotes, seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { createTestClient, type TestClient } from '../testing/test-client.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

const PUBLIC_URL = 'https://hottake.example.org';
/** The embed's budget: its JavaScript and CSS together, gzipped. */
const EMBED_BUDGET_BYTES = 15 * 1024;

let client: TestClient;
beforeAll(() => {
  client = createTestClient();
});
afterAll(() => client.remove());

/** Everything a page makes the browser run or style with: inline and linked. */
function scriptsAndStyles(html: string) {
  return {
    inlineStyles: [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? ''),
    scripts: [...html.matchAll(/<script\b/g)].length,
    stylesheets: [...html.matchAll(/<link [^>]*rel="stylesheet"/g)].length,
  };
}

describe.each(testDatabaseKinds())('embeds and oEmbed (%s)', (kind) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(kind, { clientDir: client.dir, env: { PUBLIC_URL } });
  });
  afterEach(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    new Visitor(t.app).request({ method: 'GET', url, headers });

  it("shows today's question with a vote link per option, never its results while voting is open", async () => {
    const today = await seedPoll(t.db, { question: 'Is <recess> "too short"?', options: ['Yes', 'No'], votes: [7, 3] });
    const response = await get('/embed/today');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toContain('<h1>Is &lt;recess&gt; &quot;too short&quot;?</h1>');
    const links = [...html.matchAll(/<a class="vote" href="([^"]+)" target="_blank" rel="noopener">(.*?)<\/a>/g)];
    expect(links.map((m) => m[1]?.replaceAll('&amp;', '&'))).toEqual([
      `${PUBLIC_URL}/?vote=0&poll=${today.pollNumber}`,
      `${PUBLIC_URL}/?vote=1&poll=${today.pollNumber}`,
    ]);
    expect(links.map((m) => m[2]?.replace(/<[^>]+>/g, '|'))).toEqual([
      '|Yes||Vote on Teacher Hot Take|| (opens in a new tab)|',
      '|No||Vote on Teacher Hot Take|| (opens in a new tab)|',
    ]);
    expect(html).not.toMatch(/70%|7 votes/);
    expect(response.headers['set-cookie']).toBeUndefined();

    // The same poll at its own embed address is the same view.
    expect((await get(`/embed/poll-${today.pollNumber}`)).body).toBe(html);
  });

  it("shows today's results once voting has closed, and a past poll's results with a link to its page", async () => {
    const past = await seedPoll(t.db, {
      question: 'Cursive?',
      status: 'past',
      liveDate: '2026-11-20',
      votes: [5, 4, 1],
    });
    await seedPoll(t.db, { question: 'Longer recess?', options: ['Yes', 'No'], votes: [7, 3] });
    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    const today = (await get('/embed/today')).body;
    expect(today).toContain('<b>70% · 7 votes</b>');
    expect(today).toContain('Voting has closed for today · Total: 10 votes');
    expect(today).not.toContain('?vote=');

    const page = (await get(`/embed/poll-${past.pollNumber}`)).body;
    expect(page).toContain('Poll #1 · November 20, 2026');
    expect(page).toContain('<b>50% · 5 votes</b>');
    expect(page).toContain('<b>10% · 1 vote</b>');
    expect(page).toContain(
      `<a href="${PUBLIC_URL}/poll-1" target="_blank" rel="noopener">See all votes on Teacher Hot Take`,
    );
    // The bar is drawn to scale: its fill is the percentage of the track.
    expect(page).toContain('<rect class="fill" width="50" height="10" rx="2"/>');
  });

  it('says how many votes were set aside after review beside the total, linked to what is checked; nothing when none', async () => {
    const stuffed = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-19', votes: [5, 4, 1] });
    await insertSetAsideVotes(t.db, stuffed, 1233, 'held');
    await insertSetAsideVotes(t.db, stuffed, 1, 'discounted');
    const clean = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', votes: [5, 4, 1] });
    const today = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [7, 3] });
    await insertSetAsideVotes(t.db, today, 1);

    expect((await get(`/embed/poll-${stuffed.pollNumber}`)).body).toContain(
      `Poll closed · Total: 10 votes · <a href="${PUBLIC_URL}/faq#honest-results" target="_blank" rel="noopener">1,234 votes set aside after review<span class="sr"> (opens in a new tab)</span></a> · <a href="${PUBLIC_URL}/poll-${stuffed.pollNumber}"`,
    );
    expect((await get(`/embed/poll-${clean.pollNumber}`)).body).not.toMatch(/set aside|honest-results/);
    // Today's: no results while voting is open, so no note either; the note comes with the results.
    expect((await get('/embed/today')).body).not.toMatch(/set aside|honest-results/);
    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    expect((await get('/embed/today')).body).toContain(
      'Total: 10 votes · <a href="https://hottake.example.org/faq#honest-results"',
    );
    expect((await get('/embed/today')).body).toContain('>1 vote set aside after review<');
  });

  it('answers 404 for scheduled and unknown polls, and a plain page when there is no poll today', async () => {
    const scheduled = await seedPoll(t.db, { question: 'SECRET?', status: 'scheduled', liveDate: '2026-11-24' });
    for (const path of [`/embed/poll-${scheduled.pollNumber}`, '/embed/poll-99', '/embed/poll-99999999999999999']) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.body).not.toContain('SECRET');
    }
    const none = await get('/embed/today');
    expect(none.statusCode).toBe(200);
    expect(none.body).toContain('<h1>No poll today</h1>');
  });

  it('lets any site frame the embeds, and only them: every other page still refuses', async () => {
    const past = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', votes: [1] });
    await seedPoll(t.db);
    for (const path of ['/embed/today', `/embed/poll-${past.pollNumber}`]) {
      const { headers } = await get(path);
      expect(headers['x-frame-options'], path).toBeUndefined();
      const csp = String(headers['content-security-policy']);
      expect(csp, path).toContain('frame-ancestors *');
      expect(csp, path).not.toContain('unsafe-inline');
      expect(csp, path).toMatch(/style-src 'sha256-[\w+/=]+'(;|$)/);
      expect(csp, path).toContain("default-src 'none'");
    }
    for (const path of [
      '/',
      `/poll-${past.pollNumber}`,
      '/faq',
      '/feed.xml',
      '/data/polls.json',
      '/oembed?url=x',
      '/nowhere',
    ]) {
      const { headers } = await get(path);
      expect(headers['x-frame-options'], path).toBe('SAMEORIGIN');
      expect(String(headers['content-security-policy']), path).toContain("frame-ancestors 'none'");
    }
  });

  it('keeps the embed within 15 KB of JavaScript and CSS, gzipped, with no script at all', async () => {
    await seedPoll(t.db, { options: ['One', 'Two', 'Three', 'Four', 'Five', 'Six'] });
    const html = (await get('/embed/today')).body;
    const { inlineStyles, scripts, stylesheets } = scriptsAndStyles(html);
    expect(scripts).toBe(0);
    expect(stylesheets).toBe(0);
    const gzipped = gzipSync(inlineStyles.join('\n')).length;
    expect(gzipped).toBeGreaterThan(0);
    expect(gzipped, `the embed's CSS is ${gzipped} bytes gzipped`).toBeLessThanOrEqual(EMBED_BUDGET_BYTES);
  });

  it('sends an ETag, and 304 until a vote changes what the embed shows', async () => {
    const past = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', votes: [1] });
    const first = await get(`/embed/poll-${past.pollNumber}`);
    const etag = String(first.headers.etag);
    expect((await get(`/embed/poll-${past.pollNumber}`, { 'if-none-match': etag })).statusCode).toBe(304);
  });

  describe('GET /oembed', () => {
    it('answers a rich type with the iframe for today’s page and a poll’s page', async () => {
      const past = await seedPoll(t.db, {
        question: 'Cursive "still"?',
        status: 'past',
        liveDate: '2026-11-20',
        votes: [5, 4, 1],
      });
      await seedPoll(t.db, { question: 'Longer recess?', options: ['Yes', 'No'] });
      const response = await get(
        `/oembed?url=${encodeURIComponent(`${PUBLIC_URL}/poll-${past.pollNumber}`)}&format=json`,
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.json()).toEqual({
        version: '1.0',
        type: 'rich',
        provider_name: 'Teacher Hot Take',
        provider_url: `${PUBLIC_URL}/`,
        title: 'Cursive "still"?',
        html: `<iframe src="${PUBLIC_URL}/embed/poll-1" title="Cursive &quot;still&quot;? · Teacher Hot Take" width="480" height="336" style="border:0;max-width:100%" loading="lazy"></iframe>`,
        width: 480,
        height: 336,
        cache_age: 3600,
      });

      const today = await get(`/oembed?url=${encodeURIComponent(`${PUBLIC_URL}/`)}&maxwidth=320&maxheight=200`);
      expect(today.json()).toMatchObject({ title: 'Longer recess?', width: 320, height: 200 });
      expect(today.json<{ html: string }>().html).toContain(`src="${PUBLIC_URL}/embed/today"`);
    });

    it('refuses other sites, other pages, other formats and bad sizes with a readable message', async () => {
      await seedPoll(t.db);
      const cases: [string, number, string][] = [
        ['/oembed', 400, 'validation'],
        ['/oembed?url=https%3A%2F%2Fevil.example%2F', 404, 'not-found'],
        [`/oembed?url=${encodeURIComponent(`${PUBLIC_URL}/faq`)}`, 404, 'not-found'],
        [`/oembed?url=${encodeURIComponent(`${PUBLIC_URL}/poll-42`)}`, 404, 'not-found'],
        ['/oembed?url=not%20a%20url', 404, 'not-found'],
        [`/oembed?url=${encodeURIComponent(`${PUBLIC_URL}/`)}&format=xml`, 501, 'not-implemented'],
        [`/oembed?url=${encodeURIComponent(`${PUBLIC_URL}/`)}&maxwidth=wide`, 400, 'validation'],
      ];
      for (const [url, status, code] of cases) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(status);
        const body = response.json<{ message: string; code: string }>();
        expect(body.code, url).toBe(code);
        expect(body.message.length, url).toBeGreaterThan(10);
      }
    });
  });

  it('names the feed on every page and the oEmbed answer on today’s page and poll pages', async () => {
    const past = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', votes: [1] });
    const feed =
      '<link rel="alternate" type="application/atom+xml" title="Teacher Hot Take: past polls" href="/feed.xml" />';
    const oembedOf = (url: string) =>
      `<link rel="alternate" type="application/json+oembed" title="Teacher Hot Take" href="${PUBLIC_URL}/oembed?url=${encodeURIComponent(url)}&amp;format=json" />`;
    const home = (await get('/')).body;
    expect(home).toContain(feed);
    expect(home).toContain(oembedOf(`${PUBLIC_URL}/`));
    const poll = (await get(`/poll-${past.pollNumber}`)).body;
    expect(poll).toContain(oembedOf(`${PUBLIC_URL}/poll-${past.pollNumber}`));
    for (const path of ['/faq', '/privacy', '/nowhere']) {
      const html = (await get(path)).body;
      expect(html, path).toContain(feed);
      expect(html, path).not.toContain('json+oembed');
    }
  });
});
