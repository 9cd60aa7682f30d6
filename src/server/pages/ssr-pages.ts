/**
 * Pages drawn on the server, cached. What a page shows depends on the visitor only through
 * their sight of today's poll (not voted, voted for option k, closed: active-poll-visibility.ts),
 * so each page is drawn once per reading of today's poll, sight, address and minute (the
 * countdown's step), and served to everyone with the same key until the reading is replaced
 * (at most a second later, polls/active-poll-cache.ts). Only the nonce is new in each response.
 * Pages not kept are drawn in turns (drawing-turns.ts), so drawing never holds up the rest.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ActivePoll } from '../../shared/api.js';
import type { SsrData, SsrPage, SsrRenderer } from '../../shared/ssr.js';
import type { AppHtml, PageHead, PageParts } from './app-html.js';
import { HttpError } from '../http/errors.js';
import { DrawingTurns } from './drawing-turns.js';

/** A visitor's view of today's poll, from polls.service.ts. */
export interface ActivePollView {
  /** The reading of today's poll it comes from (undefined: no poll today); a new reading, new pages. */
  reading: object | undefined;
  /** Visitors with the same sight see the same poll. */
  sight: string;
  /** The poll as GET /api/polls/active answers it for this visitor. */
  json: string;
}

/**
 * Where pages get their data: the same services as the API. Past polls are what the app's
 * server entry asks for (SsrData); today's poll comes as the visitor's view, for the cache.
 */
export interface PageData extends Pick<
  SsrData,
  'pastPolls' | 'pollResults' | 'weighting' | 'trackers' | 'tracker' | 'topics'
> {
  activePollView(voterId: string | null): Promise<ActivePollView>;
  /** Today's poll's number, or null: an embed's pick for another poll picks nothing (pages/client.ts). */
  todaysPollNumber(): Promise<number | null>;
}

export interface PagePreview {
  status: number;
  head: PageHead;
}

export interface CachedPage {
  status: number;
  parts: PageParts;
}

/**
 * Pages kept per reading, the least recently asked for going first: enough for every address
 * and sight people use, and a flood of different ones (unknown poll numbers) cannot push out
 * the pages people keep asking for.
 */
export const MAX_PAGES_PER_READING = 500;
const MINUTE_MS = 60_000;
/** Pages drawn at once, and waiting for their turn (drawing-turns.ts). */
export const DRAWING_AT_ONCE = 2;
export const DRAWING_MAX_WAITING = 100;

export function createSsrPages({
  html,
  renderer,
  data,
  now,
  log,
}: {
  html: AppHtml;
  /** Null: no server build, so pages carry only their head and the browser draws them. */
  renderer: SsrRenderer | null;
  data: PageData;
  now: () => Date;
  log: FastifyBaseLogger;
}) {
  const turns = new DrawingTurns(DRAWING_AT_ONCE, DRAWING_MAX_WAITING);
  const byReading = new WeakMap<object, Map<string, Promise<CachedPage>>>();
  /** Each page's last drawing, whatever its reading and minute, the least recently drawn going first. */
  const lastDrawn = new Map<string, CachedPage>();
  /** With no poll today there is no reading to hang pages on: they are kept for the minute. */
  let noPoll: { minute: number; pages: Map<string, Promise<CachedPage>> } = { minute: -1, pages: new Map() };

  function pagesOf(reading: object | undefined, minute: number) {
    if (reading === undefined) {
      if (noPoll.minute !== minute) noPoll = { minute, pages: new Map<string, Promise<CachedPage>>() };
      return noPoll.pages;
    }
    let pages = byReading.get(reading);
    if (!pages) byReading.set(reading, (pages = new Map<string, Promise<CachedPage>>()));
    return pages;
  }

  async function draw(url: string, drawnAt: number, view: ActivePollView): Promise<SsrPage | null> {
    if (renderer === null) return null;
    try {
      return await renderer.render({
        url,
        now: drawnAt,
        data: {
          activePoll: async () => JSON.parse(view.json) as ActivePoll | null,
          pastPolls: () => data.pastPolls(),
          pollResults: (pollNumber) => data.pollResults(pollNumber),
          weighting: () => data.weighting(),
          trackers: () => data.trackers(),
          tracker: (slug) => data.tracker(slug),
          topics: () => data.topics(),
        },
      });
    } catch (error) {
      // The browser can still draw the page itself.
      log.error({ err: error, url }, 'drawing a page on the server failed');
      return null;
    }
  }

  return {
    /**
     * The page at `url` for this visitor: a path and query that the app reads as written
     * (client.ts spells each page one way, so addresses showing the same page share it).
     * `preview` gives its status and head; `serverDrawn` false sends the app to draw itself
     * (the admin panel, which is for staff only).
     */
    async page(
      url: string,
      voterId: string | null,
      preview: () => Promise<PagePreview> | PagePreview,
      serverDrawn = true,
    ): Promise<CachedPage> {
      const view = await data.activePollView(voterId);
      const minute = Math.floor(now().getTime() / MINUTE_MS);
      const pages = pagesOf(view.reading, minute);
      const key = `${minute}\n${view.sight}\n${serverDrawn}\n${url}`;
      const kept = pages.get(key);
      if (kept) {
        // Now the most recently asked for.
        pages.delete(key);
        pages.set(key, kept);
        return kept;
      }
      // The same page whatever the reading and minute: its last drawing stands in when drawing is saturated.
      const same = `${view.sight}\n${serverDrawn}\n${url}`;
      const page: Promise<CachedPage> = turns
        .take(async () => {
          const [{ status, head }, body] = await Promise.all([
            preview(),
            serverDrawn ? draw(url, minute * MINUTE_MS, view) : null,
          ]);
          // Compressing the page gets a turn of the event loop of its own: drawn and compressed in
          // one, a page held up every other request for as long as both took.
          await new Promise((resolve) => setImmediate(resolve));
          return { status, parts: html.parts(head, body) };
        })
        .then(
          (drawn) => {
            lastDrawn.delete(same);
            if (lastDrawn.size >= MAX_PAGES_PER_READING) lastDrawn.delete(lastDrawn.keys().next().value as string);
            lastDrawn.set(same, drawn);
            return drawn;
          },
          (error: unknown) => {
            const last = lastDrawn.get(same);
            if (!last || !(error instanceof HttpError) || error.statusCode !== 503) throw error;
            // Served, not kept: the next request tries to draw it afresh.
            if (pages.get(key) === page) pages.delete(key);
            return last;
          },
        );
      if (pages.size >= MAX_PAGES_PER_READING) pages.delete(pages.keys().next().value as string);
      pages.set(key, page);
      page.catch(() => {
        if (pages.get(key) === page) pages.delete(key);
      });
      return page;
    },
  };
}
