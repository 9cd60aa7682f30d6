/**
 * The composition root: every service of the site, built once from the configuration, the
 * database and the clock, with what the app around them needs (readiness, metrics, the Redis
 * connection of the shared limits, the preview images, the data of server-drawn pages).
 * `buildApp` hands them to the plugins and routes; nothing else constructs them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { isPostgres, type Db } from './db/connection.js';
import { deleteStaleRateLimits } from './db/rate-limits.js';
import { addressHashKey, adminPasswordHash, createAdminAuth } from './admin/admin-auth.service.js';
import { createAdminPollsService } from './admin/admin-polls.service.js';
import { createMailStats } from './admin/mail-stats.js';
import { createMailTransport } from './email/mail-transport.js';
import { createOutboxWorker, type OutboxSettings } from './email/outbox.worker.js';
import { deleteSentBefore } from './email/outbox.repository.js';
import { Metrics } from './health/metrics.js';
import { Readiness } from './health/readiness.js';
import { connectRedis } from './http/rate-limit.js';
import type { PageData } from './pages/ssr-pages.js';
import { createJobs } from './jobs/jobs.js';
import { createLinkPreviews } from './og/link-previews.js';
import { PreviewImages } from './og/preview-images.js';
import { ActivePollCache, VoterChoices } from './polls/active-poll-cache.js';
import { createPollsService } from './polls/polls.service.js';
import { createScheduleService } from './polls/schedule.service.js';
import type { ServiceDeps } from './service-deps.js';
import { createStatsService } from './stats/stats.service.js';
import { createBreakdownsService } from './breakdowns/breakdowns.service.js';
import { createEmbedService } from './embed/embed.service.js';
import { createProofOfWork, proofOfWorkKey } from './integrity/proof-of-work.js';
import { createReviewService } from './review/review.service.js';
import { createOpenDataService } from './open-data/open-data.service.js';
import { createProfilesService } from './profiles/profiles.service.js';
import { createSubscriberMail } from './subscriptions/subscriber-mail.js';
import { createSubscriptionsService } from './subscriptions/subscriptions.service.js';
import { createSuggestionsService } from './suggestions/suggestions.service.js';
import { findVoterChoice } from './votes/votes.repository.js';
import { settingOrInsert } from './db/settings.js';
import { createBallots } from './integrity/ballot.js';
import { createIntegrity } from './integrity/integrity.service.js';
import { createVotesService } from './votes/votes.service.js';
import { createVoterIds } from './voters/voter-ids.service.js';
import { weightingOpenData } from './weighting/targets.js';
import type { WeightingData } from '../shared/api.js';

/** Limit counts (sign-in throttles among them) older than this are forgotten (the longest window is an hour). */
const RATE_LIMIT_MEMORY_MS = 24 * 3_600_000;
/** Sent e-mail stays in the outbox this long (staff see it in the mail figures), then goes. */
const SENT_MAIL_MEMORY_MS = 30 * 24 * 3_600_000;

export interface ServicesOptions {
  config: Config;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Shown the admin password the site generated on its first start. */
  announceAdminPassword: (password: string) => void;
  /** Outbox lease and retry settings (tests shorten the lease). */
  outbox?: Partial<OutboxSettings> | undefined;
  /** The link-preview image cache (tests pass one to count what it draws); closed with the services. */
  previewImages?: PreviewImages | undefined;
  /** The proof of work's level-0 work (tests make it tiny, to solve hundreds in Node). */
  proofOfWorkBaseMaxNumber?: number | undefined;
}

export async function createServices({
  config,
  db,
  clock,
  log,
  announceAdminPassword,
  outbox: outboxSettings,
  previewImages,
  proofOfWorkBaseMaxNumber,
}: ServicesOptions) {
  const { site } = config;
  const activePoll = new ActivePollCache(db, clock);
  const transport = createMailTransport(config.mail, log);
  const outbox = createOutboxWorker({
    db,
    clock,
    transport,
    compose: createSubscriberMail({ db, clock, site }),
    messageIdHost: new URL(site.publicUrl).hostname,
    log,
    ...(outboxSettings ? { settings: outboxSettings } : {}),
  });
  const addressKey = await addressHashKey(db);
  const voterIds = await createVoterIds({ db, clock, secureCookies: site.publicUrl.startsWith('https:') });
  const deps: ServiceDeps = {
    db,
    clock,
    site,
    activePoll,
    voterChoices: new VoterChoices((pollId, voterId) => findVoterChoice(db, pollId, voterId), {
      // SQLite is served by this one instance (README): every vote is counted here.
      soleWriter: !isPostgres(db),
    }),
    keyedHash: (value) => createHmac('sha256', addressKey).update(value).digest('hex'),
    mailQueued: () => jobs.mailQueued(),
  };
  const subscriptions = createSubscriptionsService(deps, { perAddressPerHour: config.subscribeLimitPerHour });
  const schedule = createScheduleService(deps);
  // Issue 25, proof of work: the challenges votes from a challenged network carry.
  const proofOfWork = createProofOfWork({
    db,
    clock,
    key: await proofOfWorkKey(db),
    ...(proofOfWorkBaseMaxNumber === undefined ? {} : { baseMaxNumber: proofOfWorkBaseMaxNumber }),
  });
  const jobs = createJobs({
    schedule,
    outbox,
    log,
    housekeeping: async () => {
      await subscriptions.purgeUnconfirmed();
      await subscriptions.purgeOldLinks();
      await deleteStaleRateLimits(db, new Date(clock.now().getTime() - RATE_LIMIT_MEMORY_MS));
      await auth.purgeEndedSessions();
      await deleteSentBefore(db, new Date(clock.now().getTime() - SENT_MAIL_MEMORY_MS));
      await integrity.purge();
      await proofOfWork.purgeExpired();
    },
  });
  const ballots = createBallots((await settingOrInsert(db, 'ballot_key', randomBytes(32).toString('base64'))).value);
  const integrity = createIntegrity({ db, clock, site });
  const polls = createPollsService(deps, { ballots, integrity });
  const votes = createVotesService(
    deps,
    { emailTriesPerAddressPerHour: config.subscribeLimitPerHour },
    { integrity, ballots, proofs: proofOfWork },
  );
  const auth = createAdminAuth({
    db,
    clock,
    config,
    passwordHash: await adminPasswordHash(db, config.adminPassword, announceAdminPassword),
    keyedHash: deps.keyedHash,
  });
  /** What /data/weighting.json serves, as /methods reads it. */
  const weightingData: WeightingData = weightingOpenData();
  /** Server-drawn pages read what the API answers, from the same service. */
  const pageData: PageData = {
    activePollView: (voterId) => polls.activePollView({ voterId, emailHint: undefined }),
    pastPolls: () => polls.pastPolls(),
    pollResults: (pollNumber) => polls.pastPollResults(pollNumber),
    weighting: () => Promise.resolve(weightingData),
  };
  // Last, so that nothing above can fail with a connection or drawing threads left open.
  const readiness = new Readiness();
  const redis = config.redis
    ? connectRedis(config.redis, log, (problem) => readiness.warn('redis', problem))
    : undefined;
  const images = previewImages ?? new PreviewImages();
  return {
    site,
    jobs,
    polls,
    subscriptions,
    votes,
    /** Signs and checks voter cookies (http/voter-cookie.ts). */
    voterIds,
    stats: createStatsService(deps),
    profiles: createProfilesService(deps),
    breakdowns: createBreakdownsService(deps),
    openData: createOpenDataService(deps),
    embeds: createEmbedService(deps),
    suggestions: createSuggestionsService(deps, { perAddressPerHour: config.suggestLimitPerHour }),
    adminPolls: createAdminPollsService(deps, schedule),
    integrityReview: createReviewService(deps),
    auth,
    proofOfWork,
    integrity,
    mailStats: createMailStats(db, transport.kind),
    previews: createLinkPreviews({
      clock,
      site,
      activePoll,
      pastPollResults: (pollNumber) => polls.pastPollResults(pollNumber),
    }),
    previewImages: images,
    pageData,
    /** What /readyz answers; `startServer` drains it on SIGTERM. */
    readiness,
    /** /metrics's figures; null without METRICS_TOKEN (no /metrics then). */
    metrics: config.metricsToken ? new Metrics({ db, clock, token: config.metricsToken }) : null,
    /** The shared write limit's store (REDIS_URL); undefined: each instance counts on its own. */
    redis,
    /**
     * Stops the timers and the mail connection, writes the votes received, and lets go of Redis
     * and the drawing threads (the database is the caller's).
     */
    async close() {
      jobs.stop();
      await votes.drained();
      transport.close();
      redis?.disconnect();
      await images.close();
    },
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
