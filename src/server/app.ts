/**
 * Builds the whole server without listening: tests call `app.inject()` on it, `main.ts` makes
 * it listen. In order: the database (migrated), security headers, validation and errors, then
 * the routes of each domain, the writing ones under a rate limit, and last the web app.
 */
import Fastify, { type FastifyInstance, type onRouteHookHandler } from 'fastify';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { localDateAt } from '../shared/time.js';
import { siteConfigOf, type Config, type TrustProxy } from './config.js';
import { openDatabase, type Db } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { adminAuthRoutes } from './staff/admin-auth.routes.js';
import { adminRoutes } from './admin/admin.routes.js';
import { digestAdminRoutes, digestRoutes } from './digest/digest.routes.js';
import { notesRoutes } from './notes/notes.routes.js';
import { frequencyRoutes } from './subscriptions/frequency.routes.js';
import { staffRoutes } from './staff/staff.routes.js';
import type { OutboxSettings } from './email/outbox.worker.js';
import { healthRoutes } from './health/health.routes.js';
import { reviewRoutes } from './review/review.routes.js';
import { registerMetrics } from './health/metrics.js';
import { closeConnectionsWhileDraining, type Readiness } from './health/readiness.js';
import type { Jobs } from './jobs/jobs.js';
import { registerClient } from './pages/client.js';
import { frameworkErrors, registerErrorHandler } from './http/errors.js';
import { loggerOptions, RequestLog, type LogStream } from './http/logging.js';
import { limitWrites } from './http/rate-limit.js';
import { limitHeaders } from './http/limit-headers.js';
import { addSecurityHeaders } from './http/security.js';
import { zodSerializerCompiler, zodValidatorCompiler } from './http/validation.js';
import { proofOfWorkRoutes } from './integrity/proof-of-work.routes.js';
import { ogRoutes } from './og/og.routes.js';
import { seriesAdminRoutes } from './admin/series.routes.js';
import { trackersRoutes } from './trackers/trackers.routes.js';
import type { PreviewImages } from './og/preview-images.js';
import { embedRoutes } from './embed/embed.routes.js';
import { printRoutes } from './print/print.routes.js';
import { calendarRoutes } from './calendar/calendar.routes.js';
import { openDataRoutes } from './open-data/open-data.routes.js';
import { pollsRoutes } from './polls/polls.routes.js';
import { createServices } from './services.js';
import { statsRoutes } from './stats/stats.routes.js';
import { breakdownsRoutes } from './breakdowns/breakdowns.routes.js';
import { profileChangeRoutes, profileRoutes } from './profiles/profiles.routes.js';
import { confirmRoutes } from './subscriptions/confirm.routes.js';
import { subscriptionsRoutes } from './subscriptions/subscriptions.routes.js';
import { unsubscribeRoutes } from './subscriptions/unsubscribe.routes.js';
import { suggestionsRoutes } from './suggestions/suggestions.routes.js';
import { topicsAdminRoutes, topicsRoutes } from './topics/topics.routes.js';
import { searchRoutes } from './search/search.routes.js';
import { votesRoutes } from './votes/votes.routes.js';
import { remindersChangeRoutes, remindersRoutes } from './push/reminders.routes.js';
import { manifestRoutes } from './install/manifest.routes.js';
import { RouteCatalog } from './openapi/catalog.js';
import { openApiRoutes } from './openapi/openapi.routes.js';
import type { Agent } from 'node:https';
import type { ReminderSenderSettings } from './push/reminder-sender.js';

/** Small on purpose: the largest real body, a suggestion, is under 2 KB. */
export const BODY_LIMIT_BYTES = 16 * 1024;

/** A client gets this long to send its whole request, headers and body. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface AppOptions {
  config: Config;
  /** An open database; by default one is opened from the configuration and closed with the app. */
  db?: Db;
  clock?: Clock;
  /** The built client (dist/client); null serves the API only. */
  clientDir?: string | null;
  /** The app's server build; by default dist/ssr/entry-server.js beside the client. */
  ssrEntry?: string;
  /** Where log lines go; by default stdout. */
  logStream?: LogStream;
  /** Shown the admin password the site generated on its first start (default: printed). */
  announceAdminPassword?: (password: string) => void;
  /** Outbox lease and retry settings (tests shorten the lease). */
  outbox?: Partial<OutboxSettings>;
  /** The link-preview image cache (tests pass one to count what it draws); closed with the app. */
  previewImages?: PreviewImages;
  /** The proof of work's level-0 work (tests make it tiny). */
  proofOfWorkBaseMaxNumber?: number;
  /** The HTTPS agent push reminders go out through (tests trust their fake push service with it). */
  pushAgent?: Agent;
  /** Push reminder sender settings (tests shorten the lease). */
  reminderSender?: Partial<ReminderSenderSettings>;
  /** How long a client gets to send its whole request (tests shorten it). */
  requestTimeoutMs?: number;
  /** Told of every route as it is registered (tests sweep every staff call from them). */
  onRoute?: onRouteHookHandler;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The daily switch and the outbox; `startServer` starts their timers. */
    jobs: Jobs;
    /** What /readyz answers; `startServer` drains it on SIGTERM. */
    readiness: Readiness;
  }
}

/** Printed once, where whoever started the site sees it, and not into the structured log. */
function printGeneratedPassword(password: string) {
  process.stderr.write(
    `\nNo staff account exists and no ADMIN_PASSWORD is set, so one was generated. It is shown only this once:\n\n    ${password}\n\n` +
      'Open /admin and use it to create the owner account (it opens that screen only, once), or set\n' +
      'ADMIN_EMAIL and ADMIN_PASSWORD to have the owner made at start.\n\n',
  );
}

/** A number means "trust that many proxy hops", which Fastify takes as a function. */
function proxyTrust(setting: TrustProxy) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/**
 * A client gets `ms` to send its whole request, headers and body: slow-drip connections cannot
 * pile up. Node takes the timeouts only when it creates the server (Fastify's own option sets
 * them afterwards, when they no longer apply: a dripped body ran for 89 s), and looks for
 * overdue requests only every `connectionsCheckingInterval` (30 s by default); a check every
 * second keeps the cut within a second of the limit. Headers get the same limit, not Node's 60 s.
 */
function requestTimeouts(ms: number) {
  const checkEveryMs = Math.min(1000, Math.max(50, Math.round(ms / 10)));
  return {
    requestTimeout: ms,
    http: { requestTimeout: ms, headersTimeout: ms, connectionsCheckingInterval: checkEveryMs },
  };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const { site } = config;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    logController: new RequestLog(),
    bodyLimit: BODY_LIMIT_BYTES,
    ...requestTimeouts(options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS),
    // People type /faq/ as often as /faq.
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: proxyTrust(config.trustProxy),
    frameworkErrors,
  });

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Every route, for the API document (GET /openapi.json).
  const catalog = new RouteCatalog();
  app.addHook('onRoute', catalog.collect);
  // RateLimit and RateLimit-Policy on every call a limit counted; Retry-After on its 429.
  limitHeaders(app);

  const db = options.db ?? openDatabase(config.database);
  const ownsDb = !options.db;
  if (ownsDb) app.addHook('onClose', async () => db.destroy());
  try {
    await migrateToLatest(db);
  } catch (error) {
    if (ownsDb) await db.destroy();
    throw error;
  }

  const clock = options.clock ?? systemClock;
  const services = await createServices({
    config,
    db,
    clock,
    log: app.log,
    announceAdminPassword: options.announceAdminPassword ?? printGeneratedPassword,
    outbox: options.outbox,
    previewImages: options.previewImages,
    proofOfWorkBaseMaxNumber: options.proofOfWorkBaseMaxNumber,
    pushAgent: options.pushAgent,
    reminderSender: options.reminderSender,
  });
  app.addHook('onClose', async () => services.close());
  app.decorate('jobs', services.jobs);
  app.decorate('readiness', services.readiness);
  const { metrics, redis } = services;
  const https = site.publicUrl.startsWith('https:');

  closeConnectionsWhileDraining(app, services.readiness);
  addSecurityHeaders(app, { https });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler);
  registerErrorHandler(app);

  /** What the server-drawn plain pages (/api, /search, /topics) need of the site. */
  const sitePages = {
    siteName: site.siteName,
    publicUrl: site.publicUrl,
    https,
    brandName: site.brandName,
    brandUrl: site.brandUrl,
    year: () => localDateAt(clock.now(), site.timeZone).slice(0, 4),
  };
  // Before the metrics: probes are not counted.
  await app.register(healthRoutes, { db, readiness: services.readiness });
  await app.register(openApiRoutes, { catalog, site: sitePages });
  if (metrics) await registerMetrics(app, metrics);
  const { voterIds } = services;
  await app.register(pollsRoutes, { polls: services.polls, voterIds });
  await app.register(statsRoutes, { stats: services.stats, voterIds });
  await app.register(breakdownsRoutes, { breakdowns: services.breakdowns, site });
  await app.register(profileRoutes, { profiles: services.profiles, voterIds });
  await app.register(openDataRoutes, { openData: services.openData });
  await app.register(trackersRoutes, { trackers: services.trackers, site });
  await app.register(topicsRoutes, { topics: services.topics, openData: services.openData, site: sitePages });
  await app.register(searchRoutes, { search: services.search, site: sitePages });
  await app.register(embedRoutes, { embeds: services.embeds, site, https });
  await app.register(printRoutes, { embeds: services.embeds, site, https });
  await app.register(calendarRoutes, { site, clock });
  await app.register(remindersRoutes, { reminders: services.reminders, voterIds });
  await app.register(manifestRoutes, { siteName: site.siteName });
  // The calls that write, under one per-address rate limit.
  await app.register(async (writes) => {
    await limitWrites(writes, config.rateLimitWritesPerMinute, services.keyedHash, redis, config.redis?.keyPrefix);
    await writes.register(votesRoutes, {
      votes: services.votes,
      voterIds,
      publicUrl: site.publicUrl,
      ...(metrics ? { countVote: (outcome: string) => metrics.votes.inc({ outcome }) } : {}),
    });
    // A challenge is the first half of a vote, and making one costs a key derivation: limited with the writes.
    await writes.register(proofOfWorkRoutes, {
      proofOfWork: services.proofOfWork,
      bucketOf: (ip) => services.integrity.bucketOf(ip),
      levelOf: async (pollId, bucket) => (await services.integrity.challengeFor(pollId, bucket))?.level ?? 0,
    });
    await writes.register(subscriptionsRoutes, { subscriptions: services.subscriptions });
    await writes.register(suggestionsRoutes, { suggestions: services.suggestions });
    await writes.register(profileChangeRoutes, { profiles: services.profiles, voterIds });
    await writes.register(remindersChangeRoutes, { reminders: services.reminders, voterIds });
  });
  await app.register(adminAuthRoutes, {
    auth: services.auth,
    passkeys: services.passkeys,
    db,
    clock,
    publicUrl: site.publicUrl,
    keyedHash: services.keyedHash,
  });
  await app.register(adminRoutes, {
    auth: services.auth,
    polls: services.adminPolls,
    suggestions: services.suggestions,
    publicUrl: site.publicUrl,
    mailStats: services.mailStats,
    db,
    clock,
  });
  await app.register(seriesAdminRoutes, { auth: services.auth, db, clock, publicUrl: site.publicUrl });
  await app.register(topicsAdminRoutes, {
    auth: services.auth,
    topics: services.topics,
    publicUrl: site.publicUrl,
    clock,
  });
  await app.register(reviewRoutes, {
    auth: services.auth,
    review: services.integrityReview,
    publicUrl: site.publicUrl,
    clock,
  });
  await app.register(notesRoutes, { auth: services.auth, notes: services.notes, publicUrl: site.publicUrl, clock });
  await app.register(digestAdminRoutes, { auth: services.auth, digest: services.digest, site, clock });
  await app.register(digestRoutes, { digest: services.digest, site, https });
  await app.register(staffRoutes, {
    auth: services.auth,
    staff: services.staff,
    passkeys: services.passkeys,
    db,
    clock,
    publicUrl: site.publicUrl,
  });
  const linkPages = { subscriptions: services.subscriptions, siteName: site.siteName, https };
  await app.register(unsubscribeRoutes, linkPages);
  await app.register(confirmRoutes, linkPages);
  await app.register(frequencyRoutes, linkPages);
  await app.register(ogRoutes, { previews: services.previews, images: services.previewImages });
  await registerClient(app, {
    dir: options.clientDir ?? null,
    ssrEntry: options.ssrEntry,
    https,
    previews: services.previews,
    site: siteConfigOf(site, clock.now()),
    data: services.pageData,
    voterIds,
    now: () => clock.now(),
  });

  return app;
}
