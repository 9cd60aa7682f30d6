/**
 * Serves the built browser app. Its screens answer 200 with the app, each with its own head for
 * link previews; /poll-N answers 200 for today's and past polls only. Any other path answers
 * the app with 404, so the client shows its own "404 Page Not Found" and crawlers see the
 * status. Unknown API paths answer JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ApiError } from '../../shared/api.js';
import { ID_MAX } from '../../shared/limits.js';
import type { SiteConfig } from '../../shared/site-config.js';
import { createAppHtml, type PageHead } from './app-html.js';
import { isApiPath } from './paths.js';
import { pageCsp } from './security.js';

/** Paths the client has a screen for (besides /poll-N). */
export const APP_SCREENS = ['/', '/admin', '/faq', '/terms', '/privacy'] as const;

const POLL_PAGE = /^\/poll-([1-9]\d{0,15})\/?$/;

/** A page's status and the head that tells crawlers about it. */
export interface PagePreview {
  status: number;
  head: PageHead;
}

/** Writes each page's head (og/link-previews.ts does, from the polls). */
export interface PageHeads {
  screenHead(path: string): Promise<PageHead>;
  pollPage(pollNumber: number): Promise<PagePreview>;
  notFoundPage(): PagePreview;
}

export interface ClientOptions {
  /** The built client (dist/client); null serves the API only. */
  dir: string | null;
  site: SiteConfig;
  https: boolean;
  previews: PageHeads;
}

export async function registerClient(app: FastifyInstance, { dir: clientDir, site, https, previews }: ClientOptions) {
  const indexFile = clientDir === null ? null : path.join(clientDir, 'index.html');
  const template = indexFile !== null && fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : null;
  const renderPage = template === null ? null : createAppHtml(template, site);

  const sendApp = (reply: FastifyReply, { status, head }: PagePreview) => {
    if (renderPage === null) {
      return reply
        .status(404)
        .send({ message: 'The web app is not built. Run npm run build.', code: 'not-found' } satisfies ApiError);
    }
    const { html, styleNonce } = renderPage(head);
    return reply
      .status(status)
      .header('cache-control', 'no-cache')
      .header('content-security-policy', pageCsp({ https, styleNonce }))
      .type('text/html; charset=utf-8')
      .send(html);
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
    app.get(screen, async (_request, reply) =>
      sendApp(reply, { status: 200, head: await previews.screenHead(screen) }),
    );
  }
  app.get('/poll-:number', async (request, reply) => {
    const number = Number(POLL_PAGE.exec(request.url.split('?')[0] ?? '')?.[1]);
    return sendApp(reply, number <= ID_MAX ? await previews.pollPage(number) : previews.notFoundPage());
  });

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (isApiPath(pathname) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({
        message: `There is no ${request.method} ${pathname.slice(0, 100)} here.`,
        code: 'not-found',
      } satisfies ApiError);
    }
    return sendApp(reply, previews.notFoundPage());
  });
}
