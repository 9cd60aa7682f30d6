/**
 * The API document: a valid OpenAPI 3.1 document by a standard validator, naming every route the
 * app registers (route-docs.test.ts checks that), served at GET /openapi.json as committed in openapi.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { contractProblem, type OpenApiDocument } from '../testing/contract.js';

const root = path.resolve(import.meta.dirname, '../../..');

describe('the API document', () => {
  let t: TestApp;
  let document: OpenApiDocument & { openapi: string };

  beforeAll(async () => {
    // METRICS_TOKEN turns /metrics on: every route the app can register is then registered.
    t = await createTestApp('sqlite', {
      env: { METRICS_TOKEN: 'a-metrics-token-of-20' },
    });
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    document = response.json();
  });
  afterAll(() => t.close());

  it('is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is the committed openapi.json (npm run openapi writes it; npm run check compares)', () => {
    const committed = JSON.parse(fs.readFileSync(path.join(root, 'openapi.json'), 'utf8')) as unknown;
    expect(document).toEqual(committed);
  });

  it('describes every error as ApiError, the staff calls behind the session and /metrics behind its token', () => {
    const staff = document.paths['/api/admin/polls']?.get as unknown as Record<string, unknown>;
    expect(staff.security).toEqual([{ staffSession: [] }]);
    const metrics = document.paths['/metrics']?.get as unknown as Record<string, unknown>;
    expect(metrics.security).toEqual([{ metricsToken: [] }]);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.responses['4XX']?.content?.['application/json'], `${method} ${path}`).toEqual({
          schema: { $ref: '#/components/schemas/ApiError' },
        });
      }
    }
  });

  it('fails an answer that breaks its contract', async () => {
    const answer = (statusCode: number, body: unknown, type = 'application/json; charset=utf-8') =>
      ({
        statusCode,
        body: JSON.stringify(body),
        headers: { 'content-type': type },
        json: () => body,
      }) as never;
    expect(
      await contractProblem(t.app, 'GET', '/api/polls/number/3', answer(404, { message: 'x', code: 'not-found' })),
    ).toBeNull();
    expect(
      await contractProblem(t.app, 'GET', '/api/polls/number/3', answer(404, { message: 'x', code: 'no-such-code' })),
    ).toMatch(/unlike the API document/);
    expect(await contractProblem(t.app, 'GET', '/api/polls/number/3', answer(201, {}))).toMatch(/does not list/);
    // A staff answer too: a person without their role, an invite without its link.
    expect(
      await contractProblem(t.app, 'GET', '/api/admin/staff', answer(200, [{ id: 1, email: 'a@b.example' }])),
    ).toMatch(/unlike the API document/);
    const invite = { id: 1, email: 'a@b.example', role: 'editor', createdAt: 'x', expiresAt: 'y' };
    expect(await contractProblem(t.app, 'POST', '/api/admin/invites', answer(201, invite))).toMatch(/link/);
    expect(
      await contractProblem(t.app, 'POST', '/api/admin/invites', answer(201, { ...invite, link: 'https://x/i' })),
    ).toBeNull();
    expect(
      await contractProblem(t.app, 'GET', '/api/polls/number/3', answer(404, 'a page', 'text/html; charset=utf-8')),
    ).toMatch(/the API document says application\/json/);
  });
});
