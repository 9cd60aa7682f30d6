/**
 * `npm run dev` sends every request that is not the app's to the server (scripts/dev-routing.ts):
 * held here against every route the server registers, so a route added to the server, or a
 * screen added to the app, cannot be left on the wrong side.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedByVite } from '../../scripts/dev-routing.js';
import { APP_SCREENS } from './pages/client.js';
import { createTestApp, type TestApp } from './testing/test-app.js';

const CLIENT_ROOT = path.resolve('src/client');

/** Every route the app registered, read from its route tree (`printRoutes`), one row per method. */
function registeredRoutes(app: FastifyInstance): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^([│ ├└─]*?)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node) continue;
    const depth = (node[1] ?? '').length / 4;
    prefixes.length = depth;
    const url = prefixes.join('') + (node[2] ?? '');
    prefixes.push(node[2] ?? '');
    for (const method of node[3]?.split(', ') ?? []) routes.push({ method, url });
  }
  return routes;
}

/** An address the route answers: each parameter filled in. */
const exampleOf = (url: string) => url.replace(/:\w+/g, '1');

/** The routes that serve the app's screens: in dev, Vite serves these from the sources. */
const appRoutes = new Set<string>([...APP_SCREENS, '/poll-:number']);

describe('npm run dev', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { METRICS_TOKEN: 'a-long-enough-metrics-token-for-the-test' } });
  });
  afterAll(() => t.close());

  it("hands the server every route of the server's, and keeps the app's screens with Vite", () => {
    const routes = registeredRoutes(t.app);
    const urls = new Set(routes.map((route) => route.url));
    // The reading of the tree found the routes, deep ones and those of each kind among them.
    for (const url of [
      '/healthz',
      '/metrics',
      '/api/polls/:id/vote',
      '/api/admin/polls/:id/votes.csv',
      '/polls/:id/vote',
    ])
      expect(urls, url).toContain(url);
    for (const url of appRoutes) expect(urls, url).toContain(url);

    const wrongSide = routes.filter(
      ({ method, url }) => servedByVite(method, exampleOf(url), CLIENT_ROOT) !== appRoutes.has(url),
    );
    expect(wrongSide).toEqual([]);
  });

  it("keeps Vite's own requests with Vite: its client, the modules and files of src/client", () => {
    for (const url of [
      '/@vite/client',
      '/@react-refresh',
      '/@fs/work/node_modules/vite/dist/client/env.mjs',
      '/node_modules/.vite/deps/react.js?v=1',
      '/main.tsx',
      '/app/app.tsx?t=1',
      '/styles/base.css?direct',
      '/theme.js',
      '/favicon.svg',
      '/index.html',
      '/?view=archive',
      '/poll-3/',
    ]) {
      expect(servedByVite('GET', url, CLIENT_ROOT), url).toBe(true);
    }
    // A write goes to the server, whatever its address; so does an address of no screen.
    expect(servedByVite('POST', '/', CLIENT_ROOT)).toBe(false);
    expect(servedByVite('GET', '/no-such-page', CLIENT_ROOT)).toBe(false);
  });
});
