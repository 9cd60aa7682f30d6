/**
 * Serves the built browser app. Its screens answer 200 with the app, each with its own head for
 * link previews; /poll-N answers 200 for today's and past polls only. Any other path answers
 * the app with 404, so the client shows its own "404 Page Not Found" and crawlers see the
 * status. Unknown API paths answer JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pageQueryString, readPageQuery, type PageQuery } from '../../shared/page-query.js';
import { adminPath, parseAdminPath } from '../../shared/admin-paths.js';
import { parsePollPath, pollPath, UNKNOWN_POLL_NUMBER } from '../../shared/poll-links.js';
import type { SiteConfig } from '../../shared/site-config.js';
import { parseTrackerPath, trackerPath } from '../../shared/trackers.js';
import { createAppHtml, type PageHead } from './app-html.js';
import { contentCodingFor } from '../http/content-coding.js';
import { HttpError, notFound } from '../http/errors.js';
import { isApiPath } from '../http/paths.js';
import { createPartStyles, MANIFEST_PATH } from './page-styles.js';
import { loadSsrRenderer } from './ssr.js';
import { createSsrPages, type CachedPage, type PageData, type PagePreview } from './ssr-pages.js';
import { readVoterId, type VoterIds } from '../voters/voter-cookie.js';

export type { PagePreview };

/** Paths the client has a screen for (besides /poll-N). */
export const APP_SCREENS = [
  '/',
  '/admin',
  '/faq',
  '/terms',
  '/privacy',
  '/methods',
  '/reminders',
  '/trackers',
] as const;

/** Writes each page's head (og/link-previews.ts does, from the polls). */
export interface PageHeads {
  screenHead(path: string, view?: string): Promise<PageHead>;
  pollPage(pollNumber: number): Promise<PagePreview>;
  trackerPage(slug: string): Promise<PagePreview>;
  notFoundPage(): PagePreview;
}

export interface ClientOptions {
  /** The built client (dist/client); null serves the API only. */
  dir: string | null;
  /** The app's server build (dist/ssr/entry-server.js); by default beside `dir`, in ../ssr. */
  ssrEntry?: string | undefined;
  site: SiteConfig;
  https: boolean;
  previews: PageHeads;
  /** What server-drawn pages show. */
  data: PageData;
  /** Whose page it is: the voter cookie's id, when the server signed it. */
  voterIds: VoterIds;
  now: () => Date;
}

/** A file of the built client by its address, or null when there is none. */
function readBuiltFile(clientDir: string, urlPath: string): string | null {
  const base = path.resolve(clientDir);
  const file = path.resolve(base, `.${path.posix.normalize(urlPath)}`);
  if (!file.startsWith(base + path.sep)) return null;
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

/**
 * Every address the app has no screen for shows the same page (the app's 404): it is drawn and
 * kept once, as drawn for this address, whatever address was asked for.
 */
const NOT_FOUND_ADDRESS = '/404';

/** What a person sees when drawing is saturated and the page they asked for was never drawn. */
const BUSY_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="5"><title>Teacher Hot Take</title></head>
<body><h1>Teacher Hot Take</h1><p>Too many pages are being drawn right now. Please try again in a moment.</p>
<p><a href="/">Go Home</a></p></body></html>
`;

/** The query as the app reads it (shared/page-query.ts): what a page is drawn and kept for. */
function pageQueryOf(request: FastifyRequest): PageQuery {
  const start = request.url.indexOf('?');
  return readPageQuery(new URLSearchParams(start === -1 ? '' : request.url.slice(start)));
}

export async function registerClient(
  app: FastifyInstance,
  { dir: clientDir, ssrEntry, site, https, previews, data, voterIds, now }: ClientOptions,
) {
  const indexFile = clientDir === null ? null : path.join(clientDir, 'index.html');
  const template = indexFile !== null && fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : null;
  const readAsset = (urlPath: string) => (clientDir === null ? null : readBuiltFile(clientDir, urlPath));
  const renderer =
    clientDir === null || template === null
      ? null
      : await loadSsrRenderer(ssrEntry ?? path.join(clientDir, '..', 'ssr', 'entry-server.js'), site);
  const partStyles =
    renderer === null
      ? undefined
      : createPartStyles({ manifest: readAsset(MANIFEST_PATH), readAsset, lazyParts: renderer.lazyParts });
  const appHtml = template === null ? null : createAppHtml(template, site, { https, readAsset, partStyles });
  const pages = appHtml === null ? null : createSsrPages({ html: appHtml, renderer, data, now, log: app.log });

  /**
   * Sends the page at `path` (its screen's own spelling) with the request's query as the app
   * reads it: addresses that show the same page share one drawing.
   */
  const sendApp = async (
    request: FastifyRequest,
    reply: FastifyReply,
    { path, query = pageQueryOf(request) }: { path: string; query?: PageQuery },
    preview: () => Promise<PagePreview> | PagePreview,
  ) => {
    if (pages === null || appHtml === null) throw notFound('The web app is not built. Run npm run build.');
    // ?redirect=poll-N is an old form of /poll-N: moved there by the server, nothing drawn.
    if (query.redirect !== null) {
      return reply.redirect(`${pollPath(query.redirect)}${pageQueryString({ ...query, redirect: null })}`, 302);
    }
    const voterId = (await readVoterId(request, voterIds))?.id ?? null;
    // An embed's pick made for a poll other than today's picks nothing (voting-form.tsx): it is
    // drawn as the page without it, not once per number.
    if (query.pick && query.pick.pollNumber !== null && query.pick.pollNumber !== (await data.todaysPollNumber())) {
      query = { ...query, pick: null };
    }
    const address = `${path}${pageQueryString(query)}`;
    let cached: CachedPage;
    try {
      cached = await pages.page(address, voterId, preview);
    } catch (error) {
      // Drawing is saturated and this page was never drawn: a person gets a page, not JSON.
      if (!(error instanceof HttpError) || error.statusCode !== 503) throw error;
      return reply
        .status(503)
        .header('retry-after', '5')
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'")
        .type('text/html; charset=utf-8')
        .send(BUSY_PAGE);
    }
    const { status, parts } = cached;
    const { body, csp, encoding } = appHtml.send(parts, {
      encoding: contentCodingFor(request.headers['accept-encoding']),
    });
    if (encoding !== null) reply.header('content-encoding', encoding);
    return reply
      .status(status)
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .header('content-security-policy', csp)
      .type('text/html; charset=utf-8')
      .send(body);
  };

  if (template !== null && clientDir !== null) {
    await app.register(fastifyStatic, {
      root: clientDir,
      index: false,
      // index.html is only ever sent filled in, by sendApp.
      allowedPath: (pathname) => pathname !== '/index.html',
      // One route per built file, found at start: unknown paths fall through to the 404 below.
      wildcard: false,
      serveDotFiles: false,
      // The build writes .br and .gz beside each asset; send those to browsers that take them.
      preCompressed: true,
      setHeaders(reply, filePath) {
        // Vite puts a content hash in every asset name: they never change, so cache them for good.
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  for (const screen of APP_SCREENS) {
    app.get(screen, async (request, reply) => {
      // `//` reaches `/` by the trailing slash the router overlooks, but is no screen of the app.
      if (request.url.startsWith('//')) {
        reply.callNotFound();
        return reply;
      }
      const query = pageQueryOf(request);
      return sendApp(request, reply, { path: screen, query }, async () => ({
        status: 200,
        head: await previews.screenHead(screen, query.view),
      }));
    });
  }
  // The admin panel's other places (shared/admin-paths.ts): each drawn as far as it shows
  // before the browser knows who is signed in.
  app.get('/admin/*', async (request, reply) => {
    const place = parseAdminPath(request.url.split('?')[0] ?? '');
    if (place === null) {
      reply.callNotFound();
      return reply;
    }
    const path = adminPath(place);
    return sendApp(request, reply, { path }, async () => ({ status: 200, head: await previews.screenHead(path) }));
  });
  // A tracker (issue 38): a slug no tracker has is the 404 page, drawn once whatever the slug.
  app.get('/trackers/*', async (request, reply) => {
    const slug = parseTrackerPath(request.url.split('?')[0] ?? '');
    const preview = slug === null ? previews.notFoundPage() : await previews.trackerPage(slug);
    if (slug === null || preview.status === 404) {
      return sendApp(request, reply, { path: NOT_FOUND_ADDRESS }, () => previews.notFoundPage());
    }
    return sendApp(request, reply, { path: trackerPath(slug) }, () => preview);
  });
  app.get('/poll-:number', async (request, reply) => {
    const number = parsePollPath(request.url.split('?')[0] ?? '');
    // A path the app reads as no poll's (/poll-0, /poll-abc) is its 404 page. A number no poll
    // has is its "Poll Not Found", one page drawn once for UNKNOWN_POLL_NUMBER (the browser
    // takes its refusal as this number's): a flood of made-up numbers draws nothing.
    if (number === null) return sendApp(request, reply, { path: NOT_FOUND_ADDRESS }, () => previews.notFoundPage());
    const preview = await previews.pollPage(number);
    const path = pollPath(preview.status === 404 ? UNKNOWN_POLL_NUMBER : number);
    return sendApp(request, reply, { path }, () => preview);
  });

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (isApiPath(pathname) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      throw notFound(`There is no ${request.method} ${pathname.slice(0, 100)} here.`);
    }
    return sendApp(request, reply, { path: NOT_FOUND_ADDRESS }, () => previews.notFoundPage());
  });
}
