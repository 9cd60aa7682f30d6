/**
 * The API document is the reference for people writing a client (README "The API", GET /api):
 * every route the app registers must be in it, and every path it names must be registered, so a
 * new route cannot go undocumented and a removed one cannot linger. The README's examples must
 * be calls the document names too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from './openapi/document.js';
import { createTestApp, type TestApp } from './testing/test-app.js';

const root = path.resolve(import.meta.dirname, '../..');

/** `METHOD /path` of each curl example in the README's "## The API" (GET unless it says -X). */
function readmeExamples(readme: string): string[] {
  const section = /^## The API\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  return [...section.matchAll(/curl -s(?: -X ([A-Z]+))? localhost:\d+(\/\S*)/g)].map(
    ([, method = 'GET', url = '']) => `${method} ${url}`,
  );
}

describe('the documented API', () => {
  let t: TestApp;
  let documented: string[];
  const registered: string[] = [];

  beforeAll(async () => {
    // METRICS_TOKEN turns /metrics on: every route the app can register is then registered.
    t = await createTestApp('sqlite', {
      env: { METRICS_TOKEN: 'a-metrics-token-of-20' },
      onRoute: (route) => {
        // Static files (@fastify/static hides its routes) are the built app's assets, not the API.
        if ((route.schema as { hide?: boolean } | undefined)?.hide) return;
        for (const method of [route.method].flat()) {
          // Fastify adds a HEAD beside every GET.
          if (method !== 'HEAD') registered.push(`${method} ${openApiPath(route.url)}`);
        }
      },
    });
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
  });
  afterAll(() => t.close());

  it('the API document names every route the app registers', () => {
    expect(registered.length).toBeGreaterThan(80);
    const missing = registered.filter((route) => !documented.includes(route));
    expect(missing, 'Registered but not in GET /openapi.json').toEqual([]);
  });

  it('every call the API document names is a route the app registers', () => {
    const stale = documented.filter((call) => !registered.includes(call));
    expect(stale, 'In GET /openapi.json but the app registers no such route').toEqual([]);
  });

  it("the README's examples are calls the document names", () => {
    const examples = readmeExamples(fs.readFileSync(path.join(root, 'README.md'), 'utf8'));
    expect(examples.length).toBeGreaterThanOrEqual(3);
    const patterns = documented.map((call) => {
      const source = call.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
      return new RegExp(`^${source}$`);
    });
    const unknown = examples.filter((example) => !patterns.some((pattern) => pattern.test(example)));
    expect(unknown, 'README examples the API document does not name').toEqual([]);
  });
});
