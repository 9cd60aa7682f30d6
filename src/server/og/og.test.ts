import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedDemo } from '../demo/seed.js';
import { HttpError } from '../http/errors.js';
import { insertSetAsideVotes, seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { CLIENT_TEMPLATE, createTestClient, type TestClient } from '../testing/test-client.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { DrawingPool } from './drawing-pool.js';
import type { ImagePreview } from './link-previews.js';
import { renderOgImage, type OgCard } from './og-image.js';
import { PreviewImages } from './preview-images.js';

const PUBLIC_URL = 'https://hottake.example.org';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const ENTITIES: Record<string, string> = { quot: '"', '#39': "'", lt: '<', gt: '>', amp: '&' };
const unescape = (text: string) => text.replace(/&(quot|#39|lt|gt|amp);/g, (_, name: string) => ENTITIES[name] ?? '');

/** The head of a page as a crawler reads it: the title, the canonical link and every meta. */
function headOf(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const meta = new Map<string, string[]>();
  for (const [, key = '', value = ''] of head.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)"/g)) {
    meta.set(key, [...(meta.get(key) ?? []), unescape(value)]);
  }
  const one = (key: string) => {
    const values = meta.get(key) ?? [];
    expect(values, key).toHaveLength(1);
    return values[0];
  };
  return {
    head,
    titles: [...head.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => unescape(m[1] ?? '')),
    canonical: [...head.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map((m) => unescape(m[1] ?? '')),
    one,
    has: (key: string) => meta.has(key),
  };
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(png: Buffer) {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

let client: TestClient;
/** One pool of drawing threads for the file: the images are drawn as the site draws them. */
let pool: DrawingPool;
beforeAll(() => {
  client = createTestClient();
  pool = new DrawingPool();
});
afterAll(async () => {
  client.remove();
  await pool.close();
});

describe.each(testDatabaseKinds())('link previews (%s)', (kind) => {
  let t: TestApp;
  let drawn: OgCard[];
  let images: PreviewImages;

  beforeEach(async () => {
    drawn = [];
    images = new PreviewImages({
      render: (card) => {
        drawn.push(card);
        return pool.draw(card);
      },
    });
    t = await createTestApp(kind, { clientDir: client.dir, env: { PUBLIC_URL }, previewImages: images });
  });
  afterEach(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => new Visitor(t.app, headers).get(url);
  const past = (fixture: Parameters<typeof seedPoll>[1] = {}) =>
    seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', ...fixture });

  describe('the page head', () => {
    const question = `Is "homework" <b id="injected">worth</b> it? Tom & Jerry's take 🍎 </title><script>alert(1)</script>`;
    const description = 'Line one & "two" <i>three</i>';

    it("carries today's question in every tag, escaped, with the canonical address", async () => {
      await seedPoll(t.db, { question, description, options: ['Yes', 'No'], votes: [3, 1] });
      const response = await get('/');
      expect(response.statusCode).toBe(200);
      const head = headOf(response.body);

      expect(head.titles).toEqual([`${question} · Teacher Hot Take`]);
      expect(head.canonical).toEqual([`${PUBLIC_URL}/`]);
      expect(head.one('og:title')).toBe(question);
      expect(head.one('twitter:title')).toBe(question);
      const expectedDescription = `Today's hot take. ${description} Vote anonymously in seconds and see where colleagues stand.`;
      expect(head.one('description')).toBe(expectedDescription);
      expect(head.one('og:description')).toBe(expectedDescription);
      expect(head.one('twitter:description')).toBe(expectedDescription);
      expect(head.one('og:url')).toBe(`${PUBLIC_URL}/`);
      expect(head.one('og:type')).toBe('website');
      expect(head.one('og:site_name')).toBe('Teacher Hot Take');
      expect(head.one('og:image')).toMatch(/^https:\/\/hottake\.example\.org\/og\/today\.png\?v=[\w-]{22}$/);
      expect(head.one('twitter:image')).toBe(head.one('og:image'));
      expect(head.one('og:image:type')).toBe('image/png');
      expect(head.one('og:image:width')).toBe('1200');
      expect(head.one('og:image:height')).toBe('630');
      expect(head.one('og:image:alt')).toBe(`Today's question: ${question}`);
      expect(head.one('twitter:card')).toBe('summary_large_image');
      expect(head.has('robots')).toBe(false);

      // Nothing the question says became markup: every tag in the head is one the page put there.
      const tags = [...head.head.matchAll(/<\/?([a-z!-]+)/g)].map((m) => m[1]);
      expect(new Set(tags)).toEqual(new Set(['!doctype', 'html', 'head', 'meta', 'link', 'title', 'script']));
      const scripts = (html: string) => html.match(/<script/g)?.length;
      expect(scripts(response.body)).toBe(scripts(CLIENT_TEMPLATE));
      expect(response.body).not.toContain('<b id="injected">');
    });

    it('names the site when there is no poll today', async () => {
      const head = headOf((await get('/')).body);
      expect(head.titles).toEqual(['Teacher Hot Take']);
      expect(head.one('og:title')).toBe('Teacher Hot Take');
      expect(head.one('description')).toBe('One education poll a day. Teachers vote anonymously and see the results.');
      expect(head.one('og:image')).toMatch(/\/og\/today\.png\?v=/);

      const faq = headOf((await get('/faq')).body);
      expect(faq.canonical).toEqual([`${PUBLIC_URL}/faq`]);
      expect(faq.has('robots')).toBe(false);
      expect(headOf((await get('/admin')).body).one('robots')).toBe('noindex');
    });

    it('gives a past poll its question, description and total votes', async () => {
      const poll = await past({ question, description, options: ['Yes', 'No'], votes: [1233, 1] });
      const response = await get(`/poll-${poll.pollNumber}`);
      expect(response.statusCode).toBe(200);
      const head = headOf(response.body);
      expect(head.titles).toEqual([`${question} · Teacher Hot Take`]);
      expect(head.one('og:title')).toBe(question);
      expect(head.one('og:description')).toBe(`${description} Final results: 1,234 votes. Poll closed.`);
      expect(head.one('description')).toBe(head.one('og:description'));
      expect(head.canonical).toEqual([`${PUBLIC_URL}/poll-${poll.pollNumber}`]);
      expect(head.one('og:url')).toBe(`${PUBLIC_URL}/poll-${poll.pollNumber}`);
      expect(head.one('og:image')).toMatch(
        new RegExp(`^${PUBLIC_URL}/og/poll-${poll.pollNumber}\\.png\\?v=[\\w-]{22}$`),
      );
      expect(head.one('og:image:alt')).toBe(`Results of the poll: ${question}`);
    });

    it('says how many votes were set aside after review, after the total, and nothing when none were', async () => {
      // Seeded before the first request: today's poll is read once a second at most.
      const clean = await past({ votes: [5, 4, 1] });
      const stuffed = await past({ votes: [5, 4, 1] });
      await insertSetAsideVotes(t.db, stuffed, 1234);
      const today = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [2, 1] });
      await insertSetAsideVotes(t.db, today, 1, 'discounted');

      expect(headOf((await get(`/poll-${stuffed.pollNumber}`)).body).one('og:description')).toBe(
        'Final results: 10 votes. 1,234 votes set aside after review. Poll closed.',
      );
      expect(headOf((await get(`/poll-${clean.pollNumber}`)).body).one('og:description')).toBe(
        'Final results: 10 votes. Poll closed.',
      );
      // While voting is open the description has no figures at all.
      expect(headOf((await get('/')).body).one('og:description')).toBe(
        "Today's hot take. Vote anonymously in seconds and see where colleagues stand.",
      );
      t.clock.set(newYorkTime('2026-11-21', '20:00'));
      expect(headOf((await get('/')).body).one('og:description')).toBe(
        'Voting has closed for today: 3 votes. 1 vote set aside after review. See where colleagues stand.',
      );
    });

    it("gives today's /poll-N today's head, at its own address", async () => {
      await past();
      const today = await seedPoll(t.db, { question: 'Should recess be longer?' });
      const response = await get(`/poll-${today.pollNumber}`);
      expect(response.statusCode).toBe(200);
      const head = headOf(response.body);
      expect(head.one('og:title')).toBe('Should recess be longer?');
      expect(head.one('og:url')).toBe(`${PUBLIC_URL}/poll-${today.pollNumber}`);
      expect(head.one('og:image')).toBe(headOf((await get('/')).body).one('og:image'));
    });

    it('clips a long description at a word', async () => {
      const long = 'Teachers across the district weigh in on this. '.repeat(12).trim();
      const poll = await past({ description: long });
      const text = headOf((await get(`/poll-${poll.pollNumber}`)).body).one('description') ?? '';
      expect(text.length).toBeLessThanOrEqual(200);
      expect(text).toMatch(/^Teachers across the district weigh in on this\. .*\w…$/);
    });
  });

  describe('unknown and scheduled polls', () => {
    it('answer 404 with the generic head and nothing of the poll, for pages and images', async () => {
      const scheduled = await seedPoll(t.db, {
        question: 'SECRET question for next week?',
        description: 'SECRET description',
        options: ['SECRET yes', 'SECRET no'],
        status: 'scheduled',
        liveDate: '2026-11-24',
      });
      for (const n of [scheduled.pollNumber, scheduled.pollNumber + 1, 2147483647, 99999999999]) {
        const page = await get(`/poll-${n}`);
        expect(page.statusCode, `/poll-${n}`).toBe(404);
        expect(page.body).not.toContain('SECRET');
        const head = headOf(page.body);
        expect(head.titles).toEqual(['404 Page Not Found · Teacher Hot Take']);
        expect(head.one('robots')).toBe('noindex');
        expect(head.canonical).toEqual([]);
        expect(head.has('og:url')).toBe(false);

        const image = await get(`/og/poll-${n}.png`);
        expect(image.statusCode, `/og/poll-${n}.png`).toBe(404);
        expect(image.json()).toEqual({ message: 'There is no preview image here.', code: 'not-found' });
      }
      for (const file of [
        'poll-0.png',
        'poll-1.svg',
        'poll-01.png',
        'poll-1',
        'today.jpg',
        '..%2Fpackage.json',
        'x'.repeat(90),
      ]) {
        const image = await get(`/og/${file}`);
        expect(image.statusCode, file).toBe(404);
        expect(image.json()).toEqual({ message: 'There is no preview image here.', code: 'not-found' });
      }
      const tooLong = await get(`/og/${'x'.repeat(300)}.png`);
      expect(tooLong.statusCode).toBe(414);
      expect(tooLong.json()).toEqual({ message: 'The address is too long.', code: 'bad-request' });
      expect(drawn).toEqual([]);
    });
  });

  describe('the images', () => {
    it("are 1200×630 PNGs, drawn once, with an ETag, a day's caching for a past poll and 304s", async () => {
      const poll = await past({ votes: [5, 3, 2] });
      const url = `/og/poll-${poll.pollNumber}.png`;
      const first = await get(url);
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toBe('image/png');
      expect(first.headers['cache-control']).toBe('public, max-age=86400');
      expect(first.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(pngSize(first.rawPayload)).toEqual({ width: 1200, height: 630 });

      // The ETag is the version the page names in the image's address.
      const version = new URL(
        headOf((await get(`/poll-${poll.pollNumber}`)).body).one('og:image') ?? '',
      ).searchParams.get('v');
      const etag = first.headers.etag;
      expect(etag).toBe(`"${version}"`);

      const again = await get(`${url}?v=${version}`);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(images.renders).toBe(1);

      for (const ifNoneMatch of [String(etag), `W/${etag}`, `"other", ${etag}`, '*']) {
        const notModified = await get(url, { 'if-none-match': ifNoneMatch });
        expect(notModified.statusCode, ifNoneMatch).toBe(304);
        expect(notModified.rawPayload.length).toBe(0);
        expect(notModified.headers.etag).toBe(etag);
      }
      expect((await get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);

      const head = await new Visitor(t.app).request({ method: 'HEAD', url });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-type']).toBe('image/png');
      expect(head.rawPayload.length).toBe(0);
      expect(images.renders).toBe(1);
      expect(drawn).toMatchObject([{ kind: 'results', closed: true, totalVotes: 10 }]);
    });

    it('are the current image whatever the address says its version is, drawn once', async () => {
      const poll = await past({ votes: [5, 3, 2] });
      const url = `/og/poll-${poll.pollNumber}.png`;
      const current = await get(url);
      const versions = [
        '0',
        'stale-version-from-a-cache',
        'x'.repeat(22),
        '%00',
        ...Array.from({ length: 30 }, (_, i) => `made-up-${i}`),
      ];
      const answers = await Promise.all(versions.map((v) => get(`${url}?v=${v}&n=${v}`)));
      for (const answer of answers) {
        expect(answer.statusCode).toBe(200);
        expect(answer.headers.etag).toBe(current.headers.etag);
        expect(answer.rawPayload.equals(current.rawPayload)).toBe(true);
      }
      expect(images.renders).toBe(1);
    });

    it('are drawn again when the results change, under a new ETag', async () => {
      const poll = await past({ options: ['Yes', 'No'], votes: [1, 1] });
      const url = `/og/poll-${poll.pollNumber}.png`;
      const before = await get(url);
      await t.db
        .updateTable('poll_options')
        .set({ vote_count: sql<number>`vote_count + 2` })
        .where('poll_id', '=', poll.id)
        .where('position', '=', 0)
        .execute();
      const after = await get(url);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(after.rawPayload.equals(before.rawPayload)).toBe(false);
      expect((await get(url, { 'if-none-match': String(before.headers.etag) })).statusCode).toBe(200);
      expect(drawn.map((card) => card.kind === 'results' && card.results.map((r) => r.percentage))).toEqual([
        [50, 50],
        [75, 25],
      ]);
    });

    it('carry the votes set aside after review, and are drawn again under a new ETag when only that changes', async () => {
      const poll = await past({ options: ['Yes', 'No'], votes: [3, 1] });
      const url = `/og/poll-${poll.pollNumber}.png`;
      const before = await get(url);
      await insertSetAsideVotes(t.db, poll, 2);
      const after = await get(url);
      expect(after.statusCode).toBe(200);
      expect(pngSize(after.rawPayload)).toEqual({ width: 1200, height: 630 });
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(after.rawPayload.equals(before.rawPayload)).toBe(false);
      expect(drawn).toMatchObject([
        { kind: 'results', totalVotes: 4, setAsideVotes: 0 },
        { kind: 'results', totalVotes: 4, setAsideVotes: 2 },
      ]);
    });

    it("show today's question and a call to vote before the close, never the results; the results after", async () => {
      const today = await seedPoll(t.db, {
        question: 'Should staff meetings be e-mails?',
        options: ['Alpha answer', 'Beta answer'],
        votes: [7, 3],
      });
      const open = await get('/og/today.png');
      expect(open.statusCode).toBe(200);
      expect(open.headers['cache-control']).toBe('public, max-age=300');
      expect(pngSize(open.rawPayload)).toEqual({ width: 1200, height: 630 });
      expect((await get(`/og/poll-${today.pollNumber}.png`)).headers.etag).toBe(open.headers.etag);
      expect(drawn).toHaveLength(1);
      const [card] = drawn;
      expect(card).toMatchObject({
        kind: 'vote',
        question: 'Should staff meetings be e-mails?',
        closesAt: '8:00 PM Eastern Time',
      });
      const drawnText = JSON.stringify(card);
      for (const secret of ['Alpha', 'Beta', '70', '30', '"votes"', 'results']) expect(drawnText).not.toContain(secret);
      const pageBefore = headOf((await get('/')).body);
      expect(pageBefore.one('og:description')).not.toMatch(/\d/);

      t.clock.set(newYorkTime('2026-11-21', '20:00'));
      const closed = await get('/og/today.png');
      expect(closed.headers.etag).not.toBe(open.headers.etag);
      expect(drawn[1]).toMatchObject({
        kind: 'results',
        closed: false,
        totalVotes: 10,
        results: [
          { option: 'Alpha answer', percentage: 70 },
          { option: 'Beta answer', percentage: 30 },
        ],
      });
      const pageAfter = headOf((await get('/')).body);
      expect(pageAfter.one('og:image')).not.toBe(pageBefore.one('og:image'));
      expect(pageAfter.one('og:description')).toBe(
        'Voting has closed for today: 10 votes. See where colleagues stand.',
      );
    });

    it("show the site's own card when there is no poll today", async () => {
      const response = await get('/og/today.png');
      expect(response.statusCode).toBe(200);
      expect(drawn).toMatchObject([{ kind: 'site', siteName: 'Teacher Hot Take' }]);
    });
  });
});

describe('the demo polls, drawn', () => {
  it('renders a long question, a six-option poll and today’s poll into test-results/og', async () => {
    const t = await createTestApp('sqlite', { clientDir: client.dir });
    try {
      await seedDemo(t.db, t.clock.now(), { timeZone: 'America/New_York', votingClosesAt: { hours: 20, minutes: 0 } });
      const numberOf = async (start: string) =>
        (
          await t.db
            .selectFrom('polls')
            .select('poll_number')
            .where('question', 'like', `${start}%`)
            .executeTakeFirstOrThrow()
        ).poll_number;
      const outDir = path.resolve('test-results/og');
      fs.mkdirSync(outDir, { recursive: true });
      const shots = {
        'long-question': `/og/poll-${await numberOf('If your school let students use AI')}.png`,
        'six-options': `/og/poll-${await numberOf('What is the largest class size')}.png`,
        today: '/og/today.png',
      };
      const shoot = async (shots: Record<string, string>) => {
        for (const [name, url] of Object.entries(shots)) {
          const response = await new Visitor(t.app).get(url);
          expect(response.statusCode, url).toBe(200);
          expect(pngSize(response.rawPayload)).toEqual({ width: 1200, height: 630 });
          fs.writeFileSync(path.join(outDir, `${name}.png`), response.rawPayload);
        }
      };
      await shoot(shots);
      // The same past polls with the line of votes set aside after review: the most crowded cards.
      await t.db.updateTable('polls').set({ set_aside_votes: 1234 }).where('status', '=', 'past').execute();
      await shoot({ 'long-question-set-aside': shots['long-question'], 'six-options-set-aside': shots['six-options'] });
    } finally {
      await t.close();
    }
  });
});

describe('PreviewImages', () => {
  /** A renderer whose drawings finish when the test says. */
  function controlledRenderer() {
    const pending: { card: OgCard; finish: (png: Buffer) => void; fail: (error: Error) => void }[] = [];
    const render = (card: OgCard) =>
      new Promise<Buffer>((resolve, reject) => pending.push({ card, finish: resolve, fail: reject }));
    return { pending, render };
  }
  const preview = (version: string): ImagePreview => ({
    version,
    maxAgeSeconds: 60,
    card: { kind: 'site', siteName: version, tagline: '' },
  });
  /** Lets queued promise callbacks run. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('draws an image asked for twice at once only once', async () => {
    const { pending, render } = controlledRenderer();
    const images = new PreviewImages({ render });
    const first = images.png(preview('a'));
    const second = images.png(preview('a'));
    await settle();
    expect(pending).toHaveLength(1);
    pending[0]?.finish(Buffer.from('A'));
    expect(await first).toEqual(Buffer.from('A'));
    expect(await second).toEqual(Buffer.from('A'));
    expect(images.renders).toBe(1);
  });

  it('hands different images to the drawing threads at once, and turns new ones away with a 503 when too many are under way', async () => {
    const { pending, render } = controlledRenderer();
    const images = new PreviewImages({ render, maxWaiting: 2 });
    const a = images.png(preview('a'));
    const b = images.png(preview('b'));
    const refused = images.png(preview('c'));
    await expect(refused).rejects.toBeInstanceOf(HttpError);
    await expect(refused).rejects.toMatchObject({ statusCode: 503 });
    await settle();
    expect(pending.map((p) => p.card)).toEqual([preview('a').card, preview('b').card]);
    pending[0]?.finish(Buffer.from('A'));
    expect(await a).toEqual(Buffer.from('A'));
    // One done: room for one more.
    const c = images.png(preview('c'));
    await settle();
    expect(pending.map((p) => p.card)).toEqual([preview('a').card, preview('b').card, preview('c').card]);
    pending[1]?.finish(Buffer.from('B'));
    pending[2]?.finish(Buffer.from('C'));
    expect(await b).toEqual(Buffer.from('B'));
    expect(await c).toEqual(Buffer.from('C'));
  });

  it('keeps the most recently used images, and forgets a failed drawing', async () => {
    const { pending, render } = controlledRenderer();
    const images = new PreviewImages({ render, maxEntries: 2 });
    const draw = async (version: string) => {
      const png = images.png(preview(version));
      await settle();
      pending.at(-1)?.finish(Buffer.from(version));
      return png;
    };
    await draw('a');
    await draw('b');
    await images.png(preview('a')); // a is now the most recent
    await draw('c'); // b goes
    expect(images.renders).toBe(3);
    await images.png(preview('a'));
    expect(images.renders).toBe(3);
    await draw('b');
    expect(images.renders).toBe(4);

    const failing = images.png(preview('d'));
    await settle();
    pending.at(-1)?.fail(new Error('font missing'));
    await expect(failing).rejects.toThrow('font missing');
    expect(await draw('d')).toEqual(Buffer.from('d'));
  });
});

describe('DrawingPool', () => {
  it('starts no thread before the first image, then draws in a thread what the renderer draws', async () => {
    const drawing = new DrawingPool(1);
    try {
      expect(drawing.threads).toBe(0);
      const card: OgCard = { kind: 'site', siteName: 'Teacher Hot Take', tagline: 'Teachers vote anonymously.' };
      const [inThread, inProcess] = await Promise.all([drawing.draw(card), renderOgImage(card)]);
      expect(drawing.threads).toBe(1);
      expect(pngSize(inThread)).toEqual({ width: 1200, height: 630 });
      expect(inThread.equals(inProcess)).toBe(true);
    } finally {
      await drawing.close();
    }
  });

  it('gives back the memory of each drawing, which resvg keeps outside the JavaScript heap', async () => {
    const drawing = new DrawingPool(1);
    const card = (i: number): OgCard => ({ kind: 'site', siteName: `Site ${i}`, tagline: `Drawing number ${i}` });
    try {
      for (let i = 0; i < 10; i += 1) await drawing.draw(card(i));
      const before = process.memoryUsage.rss();
      for (let i = 10; i < 110; i += 1) await drawing.draw(card(i));
      // Each drawing holds 3 MB of pixels: 100 kept would be 300 MB.
      expect((process.memoryUsage.rss() - before) / 1e6).toBeLessThan(100);
    } finally {
      await drawing.close();
    }
    // 110 drawings on one thread: about 11 s on a quiet 2-core machine, twice that on a busy one.
  }, 60_000);

  it('draws no more cards at once than it has threads', async () => {
    const drawing = new DrawingPool(1);
    try {
      const cards = Array.from({ length: 6 }, (_, i): OgCard => ({ kind: 'site', siteName: `Site ${i}`, tagline: '' }));
      await Promise.all(cards.map((card) => drawing.draw(card)));
      expect(drawing.threads).toBe(1);
    } finally {
      await drawing.close();
    }
  });
});
