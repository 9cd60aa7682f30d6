/**
 * The README's API section is where people writing a client learn what the site answers: every
 * route the app registers must be named there, and every path named there must be registered,
 * so a new route cannot go undocumented and a removed one cannot linger in the docs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './testing/test-app.js';

const root = path.resolve(import.meta.dirname, '../..');
/** Files the client build copies to its root as they are (the service worker): served, not routes. */
const publicDir = path.join(root, 'src/client/public');

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);

interface Documented {
  method: string;
  path: string;
}

/** `…/x` continues the last full path before it from its folder: `/a/:id/votes` then `…/votes.csv`. */
const resolveRelative = (relative: string, previous: string) =>
  previous.slice(0, previous.lastIndexOf('/')) + relative.slice(1);

/** A path as written, without its query (`?x=`, `[?x=]`) or fragment. */
const bare = (written: string) => written.replace(/[[?#].*$/, '');

/**
 * The calls named under "## The API": in a table's first column, `GET /a`, `GET`/`POST /a`
 * (both methods), `/b` after them (the same methods) and `…/c` (continuing the path before);
 * in the prose between the tables, `/page` is a GET.
 */
function documentedCalls(readme: string): Documented[] {
  const section = /^## The API\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const calls: Documented[] = [];
  for (const line of section.split('\n')) {
    if (line.startsWith('|')) {
      const first = line.split(/(?<!\\)\|/)[1] ?? '';
      if (/^-+$/.test(first.trim())) continue;
      let pending: string[] = [];
      let methods: string[] = ['GET'];
      let previous = '';
      for (const [, span = ''] of first.matchAll(/`([^`]+)`/g)) {
        if (METHODS.has(span)) {
          pending.push(span);
          continue;
        }
        const call = /^(?:([A-Z]+) )?((?:\/|…\/)\S*)$/.exec(span);
        if (!call) continue;
        const [, own, written = ''] = call;
        if (own !== undefined) methods = [...pending, own];
        else if (pending.length > 0) methods = pending;
        pending = [];
        const relative = written.startsWith('…');
        const full = relative ? resolveRelative(bare(written), previous) : bare(written);
        if (!relative) previous = full;
        for (const method of methods) calls.push({ method, path: full });
      }
    } else {
      for (const [, span = ''] of line.matchAll(/`(\/[^`\s]*)`/g)) calls.push({ method: 'GET', path: bare(span) });
    }
  }
  return calls;
}

/** A documented path with a sample value for each of its parameters (`:id`, `poll-N`, `/N`). */
const sample = (documented: string) => documented.replace(/:[A-Za-z]+/g, '1').replace(/(?<=[-/])N(?=$|[./])/g, '1');

/** A registered route's URL as a pattern: `:param` one segment's worth, `*` anything. */
function routePattern(url: string): RegExp {
  const parts = url.split(/(:[A-Za-z_][A-Za-z0-9_]*|\*)/);
  const source = parts
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

describe('reading the README API section', () => {
  it('finds each call, its methods, continued paths and the pages in prose', () => {
    const readme = [
      '## The API',
      '| Call | Answer |',
      '|---|---|',
      '| `GET /api/a`, `GET /api/a/number/:n` | x `POST` in the answer is not a call |',
      '| `GET`/`POST /s/confirm?token=`, `/unsub?token=` | y |',
      '| `GET /api/p/:id/votes[?w=true]`, `…/votes/summary`, `…/votes.csv` | z |',
      '| `GET`/`POST /api/k`, `POST …/k/x` `{ a \\| b }` | z |',
      'Pages: `/`, `/poll-N` and `src/not/a/path`.',
      '## Next',
      '| `GET /not/this` | |',
    ].join('\n');
    expect(documentedCalls(readme)).toEqual([
      { method: 'GET', path: '/api/a' },
      { method: 'GET', path: '/api/a/number/:n' },
      { method: 'GET', path: '/s/confirm' },
      { method: 'POST', path: '/s/confirm' },
      { method: 'GET', path: '/unsub' },
      { method: 'POST', path: '/unsub' },
      { method: 'GET', path: '/api/p/:id/votes' },
      { method: 'GET', path: '/api/p/:id/votes/summary' },
      { method: 'GET', path: '/api/p/:id/votes.csv' },
      { method: 'GET', path: '/api/k' },
      { method: 'POST', path: '/api/k' },
      { method: 'POST', path: '/api/k/x' },
      { method: 'GET', path: '/' },
      { method: 'GET', path: '/poll-N' },
    ]);
  });

  it('matches documented paths to registered routes by their parameters', () => {
    expect(routePattern('/og/:file').test(sample('/og/poll-N.png'))).toBe(true);
    expect(routePattern('/admin/*').test(sample('/admin/polls/N/integrity'))).toBe(true);
    expect(routePattern('/api/polls/:id/vote').test(sample('/api/polls/:id/vote'))).toBe(true);
    expect(routePattern('/api/polls/:id/vote').test(sample('/api/polls/:id/votes'))).toBe(false);
  });
});

describe('the documented API', () => {
  let t: TestApp;
  const registered: Documented[] = [];

  beforeAll(async () => {
    // METRICS_TOKEN turns /metrics on: every route the app can register is then registered.
    t = await createTestApp('sqlite', {
      env: { METRICS_TOKEN: 'a-metrics-token-of-20' },
      onRoute: (route) => {
        for (const method of [route.method].flat()) {
          // Fastify adds a HEAD beside every GET.
          if (method !== 'HEAD') registered.push({ method, path: route.url });
        }
      },
    });
  });
  afterAll(() => t.close());

  const documented = () => documentedCalls(fs.readFileSync(path.join(root, 'README.md'), 'utf8'));

  it('README.md names every route the app registers', () => {
    const calls = documented();
    const missing = registered
      .filter((route) => {
        const pattern = routePattern(route.path);
        return !calls.some((call) => call.method === route.method && pattern.test(sample(call.path)));
      })
      .map((route) => `${route.method} ${route.path}`);
    expect(
      missing,
      `Registered but not in README.md's "## The API" (add each to a table row's first column, e.g. \`${missing[0]}\`)`,
    ).toEqual([]);
  });

  it('every call README.md names is a route the app registers', () => {
    const served = (call: Documented) =>
      registered.some((route) => route.method === call.method && routePattern(route.path).test(sample(call.path))) ||
      (call.method === 'GET' && fs.existsSync(path.join(publicDir, call.path)) && call.path !== '/');
    const stale = documented()
      .filter((call) => !served(call))
      .map((call) => `${call.method} ${call.path}`);
    expect(stale, `In README.md's "## The API" but the app registers no such route (remove or correct it)`).toEqual([]);
  });
});
