/**
 * `/metrics` in Prometheus's format (prom-client), off unless METRICS_TOKEN is set, and then
 * only with `Authorization: Bearer <token>`: requests by route and status with their
 * durations, requests under way, votes counted and refused by reason, failed integrity judgements, the outbox's depth and the age of its oldest
 * waiting message, the PostgreSQL pool, and Node's own figures (event-loop lag among them).
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Clock } from '../clock.js';
import { postgresPoolOf, type Db } from '../db/connection.js';
import { waitingMail } from '../email/outbox.repository.js';
import { unauthorized } from '../http/errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'hot_take_http_requests_total',
    help: 'HTTP requests answered, by route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly durations = new Histogram({
    name: 'hot_take_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  readonly inFlight = new Gauge({
    name: 'hot_take_http_requests_in_flight',
    help: 'HTTP requests received and not yet answered (this scrape among them).',
    registers: [this.registry],
  });
  readonly votes = new Counter({
    name: 'hot_take_votes_total',
    help: 'Votes cast, by outcome: counted, or the reason for the refusal.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly integrityJudgementsFailed = new Counter({
    name: 'hot_take_integrity_judgements_failed_total',
    help: 'Judgements of a network on a poll (integrity/) that failed: logged at error level, the vote stands.',
    registers: [this.registry],
  });

  readonly #expected: Buffer;

  /** `token`: METRICS_TOKEN, which a scrape sends as `Authorization: Bearer <token>`. */
  constructor({ db, clock, token }: { db: Db; clock: Clock; token: string }) {
    this.#expected = digest(`Bearer ${token}`);
    collectDefaultMetrics({ register: this.registry, prefix: 'hot_take_' });
    new Gauge({
      name: 'hot_take_outbox_waiting',
      help: 'E-mails queued or being sent.',
      registers: [this.registry],
      async collect() {
        this.set((await outboxFigures(db, clock)).waiting);
      },
    });
    new Gauge({
      name: 'hot_take_outbox_oldest_waiting_seconds',
      help: 'Age of the oldest e-mail queued or being sent (0 when none).',
      registers: [this.registry],
      async collect() {
        this.set((await outboxFigures(db, clock)).oldestSeconds);
      },
    });
    const pool = postgresPoolOf(db);
    if (pool) {
      new Gauge({
        name: 'hot_take_db_pool_connections',
        help: 'PostgreSQL pool connections, by state.',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
    }
  }

  /** Whether an Authorization header carries the token (compared in constant time). */
  authorizes(authorization: string | undefined): boolean {
    return timingSafeEqual(digest(authorization ?? ''), this.#expected);
  }
}

async function outboxFigures(db: Db, clock: Clock): Promise<{ waiting: number; oldestSeconds: number }> {
  const { count, oldestCreatedAt } = await waitingMail(db);
  const oldest = oldestCreatedAt === null ? null : new Date(oldestCreatedAt).getTime();
  return {
    waiting: count,
    oldestSeconds: oldest === null ? 0 : Math.max(0, (clock.now().getTime() - oldest) / 1000),
  };
}

const metricsRoutes: FastifyPluginAsync<{ metrics: Metrics }> = async (app, { metrics }) => {
  app.get('/metrics', async (request, reply) => {
    if (!metrics.authorizes(request.headers.authorization)) {
      throw unauthorized('Send the metrics token as "Authorization: Bearer <token>".');
    }
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
};

/**
 * Counts the requests of every route `app` registers from now on (so call it before them), and
 * serves /metrics. A request is counted from the moment its headers are read until its
 * response ends or the client leaves.
 */
export async function registerMetrics(app: FastifyInstance, metrics: Metrics): Promise<void> {
  // Callback hooks, not async ones: they run on every request, and an async hook costs each
  // request a promise and a turn of the microtask queue.
  app.addHook('onRequest', (_request, reply, done) => {
    metrics.inFlight.inc();
    reply.raw.once('close', () => metrics.inFlight.dec());
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.durations.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  await app.register(metricsRoutes, { metrics });
}
