/**
 * The web app manifest (issue 28): what a browser needs to install the site as an app on a
 * phone's home screen or a laptop's dock. Served by the server because the name is
 * configuration (SITE_NAME); the icons are committed files (scripts/make-icons.mjs).
 */
import type { FastifyPluginAsync } from 'fastify';
import { DEFAULT_DESCRIPTION } from '../../shared/page-head.js';

/** The site's green, as the pages' theme-color meta says. */
const THEME_COLOR = '#15803d';

export function webAppManifest(siteName: string) {
  return {
    id: '/',
    name: siteName,
    // Launchers cut names longer than about 12 characters.
    short_name: siteName.length <= 12 ? siteName : siteName.replace(/^Teacher /, ''),
    description: DEFAULT_DESCRIPTION,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: THEME_COLOR,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

export const manifestRoutes: FastifyPluginAsync<{ siteName: string }> = async (app, { siteName }) => {
  const body = JSON.stringify(webAppManifest(siteName));
  app.get('/manifest.webmanifest', async (_request, reply) =>
    reply.type('application/manifest+json; charset=utf-8').header('cache-control', 'no-cache').send(body),
  );
};
