/** /metrics: off without METRICS_TOKEN; with it, Bearer only, and the figures operators watch. */
import { afterEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

const TOKEN = 'a metrics token of some length';

describe.each(testDatabaseKinds())('GET /metrics (%s)', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('does not exist without METRICS_TOKEN', async () => {
    t = await createTestApp(kind);
    expect((await new Visitor(t.app).get('/metrics')).statusCode).toBe(404);
  });

  it('needs the Bearer token, then counts requests, votes by outcome, the outbox and event-loop lag', async () => {
    t = await createTestApp(kind, { env: { METRICS_TOKEN: TOKEN } });
    const app = t;
    const poll = await seedPoll(app.db, { options: ['Yes', 'No'] });
    const subscriber = await app.db
      .insertInto('subscribers')
      .values({ email: 'a@example.org', created_at: app.clock.now().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const queuedAt = new Date(app.clock.now().getTime() - 90_000).toISOString();
    await app.db
      .insertInto('email_outbox')
      .values({
        kind: 'daily',
        subscriber_id: subscriber.id,
        dedupe_key: 'waiting',
        status: 'queued',
        next_attempt_at: queuedAt,
        created_at: queuedAt,
      })
      .execute();

    const voter = new Visitor(app.app);
    expect((await voter.vote(poll.id, 0)).statusCode).toBe(201);
    expect((await voter.vote(poll.id, 1)).statusCode).toBe(409);

    const anonymous = await new Visitor(app.app).get('/metrics');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'unauthorized' });
    const wrong = await new Visitor(app.app).request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer not the token' },
    });
    expect(wrong.statusCode).toBe(401);

    const response = await new Visitor(app.app).request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.body;
    expect(text).toContain('hot_take_http_requests_total{method="POST",route="/api/polls/:id/vote",status="201"} 1');
    expect(text).toContain('hot_take_http_requests_total{method="POST",route="/api/polls/:id/vote",status="409"} 1');
    expect(text).toMatch(
      /hot_take_http_request_duration_seconds_count\{method="POST",route="\/api\/polls\/:id\/vote",status="201"\} 1/,
    );
    expect(text).toContain('hot_take_http_requests_in_flight 1'); // this scrape: the votes are answered
    expect(text).toContain('hot_take_votes_total{outcome="counted"} 1');
    expect(text).toContain('hot_take_votes_total{outcome="already-voted"} 1');
    expect(text).toContain('hot_take_outbox_waiting 1');
    expect(text).toContain('hot_take_outbox_oldest_waiting_seconds 90');
    expect(text).toMatch(/hot_take_nodejs_eventloop_lag_seconds \d/);
    if (kind === 'postgres') expect(text).toMatch(/hot_take_db_pool_connections\{state="total"\} \d/);
  });
});
