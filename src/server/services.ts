/**
 * The composition root: every service of the site, built once from the configuration, the
 * database and the clock, with what the app around them needs (readiness, metrics, the Redis
 * connection of the shared limits, the preview images, the data of server-drawn pages).
 * `buildApp` hands them to the plugins and routes; nothing else constructs them.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { isPostgres, type Db } from './db/connection.js';
import { deleteStaleRateLimits } from './db/rate-limits.js';
import { createAdminAuth } from './staff/admin-auth.service.js';
import { adminPasswordHash, createOwnerFromConfig } from './staff/first-owner.js';
import { createAuditHeadLog, useAuditChainKey } from './staff/audit.js';
import { createPasskeys } from './staff/passkeys.service.js';
import { createStaffService } from './staff/staff.service.js';
import { createStaffMail } from './staff/staff-mail.js';
import { createAdminPollsService } from './admin/admin-polls.service.js';
import { createMailStats } from './admin/mail-stats.js';
import { createMailTransport } from './email/mail-transport.js';
import { createOutboxWorker, type OutboxSettings } from './email/outbox.worker.js';
import { deleteSentBefore } from './email/outbox.repository.js';
import { Metrics } from './health/metrics.js';
import { Readiness } from './health/readiness.js';
import { createAddressKeys } from './http/address-limits.js';
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
import { createNotesService } from './notes/notes.service.js';
import { createDigestService } from './digest/digest.service.js';
import { createSubscriptionsService } from './subscriptions/subscriptions.service.js';
import { createSuggestionsService } from './suggestions/suggestions.service.js';
import { createTopicsService } from './topics/topics.service.js';
import { createSearchService } from './search/search.service.js';
import { findVoterChoice } from './votes/votes.repository.js';
import { siteKey } from './db/settings.js';
import { createBallots } from './integrity/ballot.js';
import { createIntegrity } from './integrity/integrity.service.js';
import { enqueueIntegrityAlerts } from './email/outbox.repository.js';
import { createVotesService } from './votes/votes.service.js';
import { createVoterIds } from './voters/voter-ids.service.js';
import { Agent } from 'node:https';
import {
  createPushTransport,
  createReminderSender,
  DEFAULT_SENDER_SETTINGS,
  type ReminderSenderSettings,
} from './push/reminder-sender.js';
import { createRemindersService } from './push/reminders.service.js';
import { vapidKeys } from './push/vapid.js';
import { weightingOpenData } from './weighting/targets.js';
import { createWeightingService } from './weighting/weighted.service.js';
import { createTrackersService } from './trackers/trackers.service.js';
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
  /** The HTTPS agent reminders go out through (tests pass one that trusts their fake push service). */
  pushAgent?: Agent | undefined;
  /** Push reminder sender settings (tests shorten the lease, the bench widens the batches). */
  reminderSender?: Partial<ReminderSenderSettings> | undefined;
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
  pushAgent,
  reminderSender,
}: ServicesOptions) {
  const { site } = config;
  useAuditChainKey(config.auditChainKey);
  if (!config.auditChainKey)
    log.warn(
      'AUDIT_CHAIN_KEY is not set: the audit log chain is unkeyed, so anyone with the database could rewrite it.',
    );
  const auditHead = createAuditHeadLog(db, log);
  const activePoll = new ActivePollCache(db, clock);
  const transport = createMailTransport(config.mail, log);
  // Issue 39: staff notes and the weekly digest.
  const notes = createNotesService({ db, clock, site });
  const digest = createDigestService({ db, clock, site });
  const subscriberMail = createSubscriberMail({ db, clock, site, weekDigest: (week) => digest.week(week) });
  const staffMail = createStaffMail({ db, clock, site });
  const outbox = createOutboxWorker({
    db,
    clock,
    transport,
    compose: (mail) => (mail.kind.startsWith('staff-') ? staffMail(mail) : subscriberMail(mail)),
    messageIdHost: new URL(site.publicUrl).hostname,
    log,
    ...(outboxSettings ? { settings: outboxSettings } : {}),
  });
  const addressKeys = createAddressKeys({ db, clock, site });
  const voterIds = await createVoterIds({
    db,
    clock,
    secureCookies: site.publicUrl.startsWith('https:'),
    key: config.siteKeys.voter_cookie_key,
  });
  const deps: ServiceDeps = {
    db,
    clock,
    site,
    activePoll,
    voterChoices: new VoterChoices((pollId, voterId) => findVoterChoice(db, pollId, voterId), {
      // SQLite is served by this one instance (README): every vote is counted here.
      soleWriter: !isPostgres(db),
    }),
    keyedHash: (value) => addressKeys.hash(value),
    mailQueued: () => jobs.mailQueued(),
  };
  const subscriptions = createSubscriptionsService(deps, { perAddressPerHour: config.subscribeLimitPerHour });
  const schedule = createScheduleService(deps);
  // Issue 25, proof of work: the challenges votes from a challenged network carry.
  const proofOfWork = createProofOfWork({
    db,
    clock,
    key: await proofOfWorkKey(db, config.siteKeys.proof_of_work_key),
    ...(proofOfWorkBaseMaxNumber === undefined ? {} : { baseMaxNumber: proofOfWorkBaseMaxNumber }),
  });
  // Issue 28, push reminders: one keep-alive agent, as many sockets as requests in flight.
  const senderSettings = { ...DEFAULT_SENDER_SETTINGS, ...reminderSender };
  const agent = pushAgent ?? new Agent({ keepAlive: true, maxSockets: senderSettings.concurrency });
  const vapid = await vapidKeys(db, config.push);
  const sendPush = createPushTransport({
    vapid,
    subject: config.push.subject,
    agent,
    timeoutMs: senderSettings.timeoutMs,
  });
  const reminders = createRemindersService(deps, {
    applicationServerKey: vapid.publicKey,
    serviceHosts: config.push.serviceHosts,
    perAddressPerHour: config.pushSubscribeLimitPerHour,
    send: sendPush,
    log,
  });
  const reminderSenderWorker = createReminderSender({ db, clock, site, send: sendPush, log, settings: senderSettings });
  const integrityReview = createReviewService(deps);
  const jobs = createJobs({
    schedule,
    outbox,
    log,
    reminders: () => reminderSenderWorker.runOnce(),
    weekly: () => digest.queueDue(),
    endedChallenges: async () =>
      (await integrityReview.releaseEndedChallenges()) + (await integrityReview.releaseAtClose()),
    housekeeping: async () => {
      await reminders.purge();
      await subscriptions.purgeUnconfirmed();
      await subscriptions.purgeOldLinks();
      await deleteStaleRateLimits(db, new Date(clock.now().getTime() - RATE_LIMIT_MEMORY_MS));
      await auth.purgeEndedSessions();
      await deleteSentBefore(db, new Date(clock.now().getTime() - SENT_MAIL_MEMORY_MS));
      await integrity.purge();
      await proofOfWork.purgeExpired();
      await auditHead(clock.now());
    },
  });
  const ballots = createBallots(await siteKey(db, 'ballot_key', { fromEnvironment: config.siteKeys.ballot_key }));
  const metrics = config.metricsToken ? new Metrics({ db, clock, token: config.metricsToken }) : null;
  const integrity = createIntegrity({
    db,
    clock,
    site,
    log,
    ...(metrics ? { onJudgementFailed: () => metrics.integrityJudgementsFailed.inc() } : {}),
    // Issue 37 item 5: the owners and editors are told, once per poll and hour.
    onTrouble: async (pollId, at) => {
      if ((await enqueueIntegrityAlerts(db, pollId, new Date(at))) > 0) deps.mailQueued();
    },
  });
  const polls = createPollsService(deps, { ballots, integrity }, (pollId) => notes.published(pollId));
  const votes = createVotesService(
    deps,
    { emailTriesPerAddressPerHour: config.subscribeLimitPerHour },
    { integrity, ballots, proofs: proofOfWork, review: integrityReview },
  );
  // Issue 27: staff as people. A scripted install's first owner comes from ADMIN_EMAIL; on an
  // upgraded site the old shared password makes the first owner once, then signs nobody in.
  if (config.adminEmail && config.adminPassword) {
    const made = await createOwnerFromConfig(db, clock, config.adminEmail, config.adminPassword);
    if (made === 'created') log.info('Created the first owner account from ADMIN_EMAIL and ADMIN_PASSWORD.');
  }
  const auth = createAdminAuth({
    db,
    clock,
    config,
    legacyPasswordHash: await adminPasswordHash(db, config.adminPassword, announceAdminPassword),
    keyedHash: deps.keyedHash,
    secureCookies: site.publicUrl.startsWith('https:'),
    mailQueued: deps.mailQueued,
  });
  if (!(await auth.needsOwner()) && config.adminPassword && !config.adminEmail) {
    log.info(
      'ADMIN_PASSWORD no longer signs anyone in: staff have their own accounts. Remove it, or run `npm run staff -- sign-in-link` if every other way in is lost.',
    );
  }
  const passkeys = createPasskeys({ db, clock, auth, publicUrl: site.publicUrl, siteName: site.siteName });
  const trackers = createTrackersService(deps, createWeightingService({ db, clock }));
  const topics = createTopicsService(deps);
  /** What /data/weighting.json serves, as /methods reads it. */
  const weightingData: WeightingData = weightingOpenData();
  /** Server-drawn pages read what the API answers, from the same service. */
  const pageData: PageData = {
    activePollView: (voterId) => polls.activePollView({ voterId, emailHint: undefined }),
    todaysPollNumber: async () => (await activePoll.get())?.pollNumber ?? null,
    pastPolls: () => polls.pastPolls(),
    pollResults: (pollNumber) => polls.pastPollResults(pollNumber),
    weighting: () => Promise.resolve(weightingData),
    trackers: () => trackers.list(),
    tracker: (slug) => trackers.tracker(slug),
    topics: () => topics.list(),
  };
  // Last, so that nothing above can fail with a connection or drawing threads left open.
  const readiness = new Readiness();
  const redis = config.redis
    ? connectRedis(config.redis, log, (problem) => readiness.warn('redis', problem))
    : undefined;
  const images = previewImages ?? new PreviewImages();
  const search = createSearchService(deps);
  return {
    site,
    jobs,
    polls,
    trackers,
    subscriptions,
    votes,
    reminders,
    notes,
    digest,
    /** Signs and checks voter cookies (voters/voter-cookie.ts). */
    voterIds,
    stats: createStatsService(deps),
    profiles: createProfilesService(deps, { forgetAlso: (voterId) => reminders.forget(voterId) }),
    breakdowns: createBreakdownsService(deps),
    openData: createOpenDataService(deps),
    embeds: createEmbedService(deps),
    suggestions: createSuggestionsService(deps, { perAddressPerHour: config.suggestLimitPerHour }),
    topics,
    search,
    adminPolls: createAdminPollsService(deps, schedule),
    integrityReview,
    auth,
    passkeys,
    staff: createStaffService({ db, clock, mailQueued: deps.mailQueued }),
    proofOfWork,
    integrity,
    mailStats: createMailStats(db, transport.kind),
    previews: createLinkPreviews({
      clock,
      site,
      activePoll,
      pastPollResults: (pollNumber) => polls.pastPollResults(pollNumber),
      tracker: (slug) => trackers.tracker(slug),
    }),
    previewImages: images,
    pageData,
    /** What /readyz answers; `startServer` drains it on SIGTERM. */
    readiness,
    /** /metrics's figures; null without METRICS_TOKEN (no /metrics then). */
    metrics,
    /** The shared write limit's store (REDIS_URL); undefined: each instance counts on its own. */
    redis,
    /** Keyed hash under the day's address key: what every per-address limit counts. */
    keyedHash: deps.keyedHash,
    /**
     * Stops the timers and the mail connection, writes the votes received, and lets go of Redis,
     * the drawing threads and the search thread (the database is the caller's).
     */
    async close() {
      jobs.stop();
      await votes.drained();
      transport.close();
      if (!pushAgent) agent.destroy();
      redis?.disconnect();
      await Promise.all([images.close(), search.close()]);
    },
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
