/**
 * GET /api: the reference page drawn on the server from the API document, every call on it,
 * narrowed by `?q=` on the server (no script needed), under the site's CSP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { injectChecked } from '../testing/contract.js';
import { typeHtml } from './api-page.js';

describe('the API reference page', () => {
  let t: TestApp;
  let operations: { method: string; path: string; id: string }[];

  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { METRICS_TOKEN: 'a-metrics-token-of-20' } });
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { operationId: string }>>;
    }>();
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ method, path, id: operation.operationId })),
    );
  });
  afterAll(() => t.close());

  const page = (url: string) => injectChecked(t.app, { method: 'GET', url });
  const callsOn = (html: string) => [...html.matchAll(/<article class="card op" id="([^"]+)"/g)].map((m) => m[1]);

  it('shows every call of the document, with no script, under the CSP', async () => {
    const response = await page('/api');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toMatch(/script-src 'self';/);
    expect(response.body).not.toMatch(/<script|style="|onclick=/i);
    expect(callsOn(response.body).toSorted()).toEqual(operations.map((o) => o.id).toSorted());
    for (const { method, path } of operations) {
      expect(response.body).toContain(`<span class="method method--${method}">${method.toUpperCase()}</span>`);
      expect(response.body).toContain(`<code class="path">${path.replaceAll("'", '&#39;')}</code>`);
    }
    for (const heading of ['Public API', 'Staff', 'Errors', 'Limits', 'Shared schemas']) {
      expect(response.body).toContain(`>${heading}</h2>`);
    }
    expect(response.body).toContain('<code>RateLimit-Policy</code>');
    expect(response.body).toContain('<code>rate-limited</code>');
  });

  it('narrows the calls to those matching every word, at an address of its own', async () => {
    const all = callsOn((await page('/api')).body);
    const response = await page('/api?q=reminders+delete');
    expect(response.statusCode).toBe(200);
    expect(callsOn(response.body)).toEqual(['deleteApiReminders']);
    expect(response.body).toContain(`1 of ${all.length} calls match “reminders delete”`);
    expect(response.body).toContain('<input id="q" name="q" type="search" value="reminders delete"');
    expect(response.body).toContain('<meta name="robots" content="noindex">');
    const audit = callsOn((await page('/api?q=AUDIT')).body);
    expect(audit.length).toBeGreaterThan(2);
    expect(audit.length).toBeLessThan(all.length);
    const none = await page('/api?q=%3Cscript%3E');
    expect(callsOn(none.body)).toEqual([]);
    expect(none.body).toContain('No call matches “&lt;script&gt;”');
    expect((await t.app.inject({ method: 'GET', url: `/api?q=${'x'.repeat(201)}` })).statusCode).toBe(400);
  });

  it('writes schemas compactly, every name escaped', () => {
    expect(
      typeHtml({
        type: 'object',
        properties: {
          id: { type: 'integer' },
          '<b>': { type: ['string', 'null'], description: 'A `code` <i>' },
          list: { type: 'array', items: { $ref: '#/components/schemas/TopicRef' } },
          kind: { enum: ['a', 'b'] },
        },
        required: ['id', 'list'],
        additionalProperties: false,
      }),
    ).toBe(
      [
        '{',
        '  id: integer',
        '  &lt;b&gt;?: string | null <span class="note">// A <code>code</code> &lt;i&gt;</span>',
        '  list: <a href="/api#schema-TopicRef">TopicRef</a>[]',
        '  kind?: &quot;a&quot; | &quot;b&quot;',
        '}',
      ].join('\n'),
    );
  });
});
