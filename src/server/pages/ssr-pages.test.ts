/**
 * Which pages the server draws: one drawing per page the app shows, whatever the address's
 * spelling, and never more than a few at once. The app's server build is stood in for by a
 * renderer that records each address it is asked to draw and draws it when the test says so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createTestClient, type TestClient } from '../testing/test-client.js';
import { Visitor } from '../testing/visitor.js';
import { DRAWING_AT_ONCE, DRAWING_MAX_WAITING, MAX_PAGES_PER_READING } from './ssr-pages.js';
import { ID_MAX } from '../../shared/limits.js';
import { MANIFEST_PATH } from './page-styles.js';

/** What the stand-in renderer shares with the test (through a global: the server loads its own copy). */
interface Drawings {
  /** Each address drawn, in the order drawing started. */
  started: string[];
  drawing: number;
  mostAtOnce: number;
  /** Drawing waits for this when set. */
  hold: Promise<void> | null;
}
const DRAWINGS = '__hotTakeTestDrawings';
const drawings = (): Drawings => (globalThis as unknown as Record<typeof DRAWINGS, Drawings>)[DRAWINGS];

const RENDERER = `
export const renderer = {
  lazyParts: [],
  async render({ url }) {
    const d = globalThis.${DRAWINGS};
    d.started.push(url);
    d.drawing += 1;
    d.mostAtOnce = Math.max(d.mostAtOnce, d.drawing);
    try {
      if (d.hold) await d.hold;
      return { html: '<p>drawn for ' + url + '</p>', state: '{}', parts: [] };
    } finally {
      d.drawing -= 1;
    }
  },
};
`;

let client: TestClient;
let ssrEntry: string;
beforeAll(() => {
  client = createTestClient();
  fs.mkdirSync(path.join(client.dir, path.dirname(MANIFEST_PATH)), { recursive: true });
  fs.writeFileSync(path.join(client.dir, MANIFEST_PATH), '{}');
  ssrEntry = path.join(client.dir, 'entry-server.mjs');
  fs.writeFileSync(ssrEntry, RENDERER);
});
afterAll(() => client.remove());

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/**
 * A site with no poll today: its pages are kept for the minute of the test's clock, which
 * stands still, so every drawing the test sees is one the cache did not have.
 */
async function site(): Promise<Visitor> {
  (globalThis as unknown as Record<typeof DRAWINGS, Drawings>)[DRAWINGS] = {
    started: [],
    drawing: 0,
    mostAtOnce: 0,
    hold: null,
  };
  t = await createTestApp('sqlite', { clientDir: client.dir, ssrEntry });
  return new Visitor(t.app);
}

describe('the pages the server draws', () => {
  it('draws a page once for every address that shows it: parameters the app does not read, values it does nothing with, another spelling', async () => {
    const visitor = await site();
    for (const url of [
      '/',
      '/?x=1',
      '/?x=2&utm_source=mail',
      '/?view=today',
      '/?view=nonsense',
      '/?vote=1&poll=007',
      '/?view=%zz%',
    ]) {
      const response = await visitor.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<p>drawn for /</p>');
    }
    for (const url of ['/?view=archive', '/?x=3&view=archive', '/?view=archive&view=today']) {
      expect((await visitor.get(url)).body, url).toContain('<p>drawn for /?view=archive</p>');
    }
    for (const url of ['/?vote=2', '/?vote=02&ref=embed']) {
      expect((await visitor.get(url)).body, url).toContain('<p>drawn for /?vote=2</p>');
    }
    for (const url of ['/faq', '/faq/', '/faq?x=1']) expect((await visitor.get(url)).statusCode, url).toBe(200);
    expect(drawings().started).toEqual(['/', '/?view=archive', '/?vote=2', '/faq']);
  });

  it('draws one 404 page for every address the app has no page for', async () => {
    const visitor = await site();
    // No poll has a number past ID_MAX: such an address is no poll's either.
    const noPolls = ['/poll-0', '/poll-abc', '/poll-07/', '/poll-2147483648', '/poll-9999999999999999/'];
    for (const url of ['/no-such-page', '/no/such/page?x=1', '/no-such-page-2', ...noPolls]) {
      const response = await visitor.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toContain('text/html');
    }
    expect(drawings().started).toEqual(['/404']);
  });

  it('draws one "Poll Not Found" page for every poll number the site does not have, asked for any way', async () => {
    const visitor = await site();
    for (let n = 1; n <= 50; n += 1) {
      const url = n % 2 === 0 ? `/poll-${n * 7919}` : `/poll-${n}/?x=${n}`;
      const response = await visitor.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).toContain(`<p>drawn for /poll-${ID_MAX}</p>`);
    }
    // An embed's pick made for another poll picks nothing: the page without it.
    for (let n = 1; n <= 20; n += 1) {
      expect((await visitor.get(`/?vote=1&poll=${n * 31}`)).body).toContain('<p>drawn for /</p>');
    }
    // ?redirect=poll-N, the old form of /poll-N, is moved there without drawing anything.
    for (const [url, to] of [
      ['/?redirect=poll-77', '/poll-77'],
      ['/?view=archive&redirect=poll-5', '/poll-5?view=archive'],
    ] as const) {
      const response = await visitor.get(url);
      expect(response.statusCode, url).toBe(302);
      expect(response.headers.location, url).toBe(to);
    }
    expect(drawings().started).toEqual([`/poll-${ID_MAX}`, '/']);
  });

  it('keeps the pages people keep asking for through a flood of different ones', async () => {
    const visitor = await site();
    const flood = async (from: number, count: number) => {
      for (let i = from; i < from + count; i += 1)
        expect((await visitor.get(`/poll-${1000 + i}`)).statusCode).toBe(404);
    };
    await flood(0, MAX_PAGES_PER_READING);
    // Asked for while the cache is full of the flood's pages, then again after more of them.
    await visitor.get('/?view=archive');
    await flood(MAX_PAGES_PER_READING, MAX_PAGES_PER_READING / 2);
    await visitor.get('/?view=archive');
    await flood(MAX_PAGES_PER_READING * 1.5, MAX_PAGES_PER_READING / 2);
    await visitor.get('/?view=archive');
    expect(drawings().started.filter((url) => url === '/?view=archive')).toHaveLength(1);
  });

  it(`draws ${DRAWING_AT_ONCE} pages at once, lines up ${DRAWING_MAX_WAITING} more to wait their turn, and refuses the rest with a 503 page`, async () => {
    const visitor = await site();
    let release = () => {};
    drawings().hold = new Promise<void>((resolve) => (release = resolve));
    const asked = DRAWING_AT_ONCE + DRAWING_MAX_WAITING + 3;
    const answers: { statusCode: number; body: string; headers: Record<string, unknown> }[] = [];
    // Different pages (an embed's pick of each option, and the information pages), all asked for at once.
    const addresses = [
      ...Array.from({ length: 100 }, (_, k) => `/?vote=${k}`),
      ...['/faq', '/terms', '/privacy', '/methods', '/reminders'],
    ];
    expect(addresses).toHaveLength(asked);
    const requests = addresses.map((url) =>
      visitor.get(url).then((response) => {
        answers.push(response);
        return response;
      }),
    );
    // The three beyond the line are answered at once, with a page a person can read; the others wait.
    await vi.waitFor(() => expect(answers).toHaveLength(3));
    for (const refused of answers) {
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(refused.body).toContain('Too many pages are being drawn right now. Please try again in a moment.');
    }
    expect(drawings().drawing).toBe(DRAWING_AT_ONCE);
    expect(drawings().started).toHaveLength(DRAWING_AT_ONCE);

    release();
    const responses = await Promise.all(requests);
    const drawn = responses.filter((response) => response.statusCode !== 503);
    expect(drawn).toHaveLength(DRAWING_AT_ONCE + DRAWING_MAX_WAITING);
    // Each waited for its turn and got its page, drawn.
    for (const response of drawn) expect(response.body).toMatch(/<p>drawn for \/[^<]+<\/p>/);
    expect(drawings().started).toHaveLength(DRAWING_AT_ONCE + DRAWING_MAX_WAITING);
    expect(drawings().mostAtOnce).toBe(DRAWING_AT_ONCE);
  });

  it('serves a page drawn before from its last drawing while drawing is saturated', async () => {
    const visitor = await site();
    expect((await visitor.get('/faq')).body).toContain('<p>drawn for /faq</p>');
    // A minute later the kept page is out of date, and the line is full of other pages.
    t?.clock.advance(60_000);
    let release = () => {};
    drawings().hold = new Promise<void>((resolve) => (release = resolve));
    let refused = 0;
    const others = [...Array.from({ length: 100 }, (_, k) => `/?vote=${k}`), '/privacy', '/methods', '/reminders'];
    expect(others).toHaveLength(DRAWING_AT_ONCE + DRAWING_MAX_WAITING + 1);
    const line = others.map((url) =>
      visitor.get(url).then((response) => {
        if (response.statusCode === 503) refused += 1;
      }),
    );
    // Full: one page beyond the line was refused.
    await vi.waitFor(() => expect(refused).toBe(1));
    const faq = await visitor.get('/faq');
    expect(faq.statusCode).toBe(200);
    expect(faq.body).toContain('<p>drawn for /faq</p>');
    // A page never drawn gets the 503 page.
    expect((await visitor.get('/terms')).statusCode).toBe(503);
    release();
    await Promise.all(line);
    expect(drawings().started.filter((url) => url === '/faq')).toHaveLength(1);
  });
});
