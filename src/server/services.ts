/**
 * The composition root: every service of the site, built once from the configuration, the
 * database and the clock. `buildApp` hands them to the routes; nothing else constructs them.
 */
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import { deleteStaleRateLimits } from './db/rate-limits.js';
import { addressHashKey, adminPasswordHash, createAdminAuth } from './admin/admin-auth.service.js';
import { createAdminPollsService } from './admin/admin-polls.service.js';
import { createMailStats } from './admin/mail-stats.js';
import { createMailTransport } from './email/mail-transport.js';
import { createOutboxWorker, type OutboxSettings } from './email/outbox.worker.js';
import { deleteSentBefore } from './email/outbox.repository.js';
import { createJobs } from './jobs/jobs.js';
import { createLinkPreviews } from './og/link-previews.js';
import { ActivePollCache, VoterChoices } from './polls/active-poll-cache.js';
import { createPollsService } from './polls/polls.service.js';
import { createScheduleService } from './polls/schedule.service.js';
import type { ServiceDeps } from './service-deps.js';
import { createStatsService } from './stats/stats.service.js';
import { createBreakdownsService } from './breakdowns/breakdowns.service.js';
import { createEmbedService } from './embed/embed.service.js';
import { createOpenDataService } from './open-data/open-data.service.js';
import { createProfilesService } from './profiles/profiles.service.js';
import { createSubscriberMail } from './subscriptions/subscriber-mail.js';
import { createSubscriptionsService } from './subscriptions/subscriptions.service.js';
import { createSuggestionsService } from './suggestions/suggestions.service.js';
import { findVoterChoice } from './votes/votes.repository.js';
import { createVotesService } from './votes/votes.service.js';

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
}

export async function createServices({
  config,
  db,
  clock,
  log,
  announceAdminPassword,
  outbox: outboxSettings,
}: ServicesOptions) {
  const { site } = config;
  const activePoll = new ActivePollCache(db, clock);
  const transport = createMailTransport(config.mail, log);
  const outbox = createOutboxWorker({
    db,
    clock,
    transport,
    compose: createSubscriberMail({ db, site }),
    messageIdHost: new URL(site.publicUrl).hostname,
    log,
    ...(outboxSettings ? { settings: outboxSettings } : {}),
  });
  const addressKey = await addressHashKey(db);
  const deps: ServiceDeps = {
    db,
    clock,
    site,
    activePoll,
    voterChoices: new VoterChoices((pollId, voterId) => findVoterChoice(db, pollId, voterId)),
    keyedHash: (value) => createHmac('sha256', addressKey).update(value).digest('hex'),
    mailQueued: () => jobs.mailQueued(),
  };
  const subscriptions = createSubscriptionsService(deps, { perAddressPerHour: config.subscribeLimitPerHour });
  const schedule = createScheduleService(deps);
  const jobs = createJobs({
    schedule,
    outbox,
    log,
    housekeeping: async () => {
      await subscriptions.purgeUnconfirmed();
      await deleteStaleRateLimits(db, new Date(clock.now().getTime() - RATE_LIMIT_MEMORY_MS));
      await auth.purgeEndedSessions();
      await deleteSentBefore(db, new Date(clock.now().getTime() - SENT_MAIL_MEMORY_MS));
    },
  });
  const polls = createPollsService(deps);
  const votes = createVotesService(deps, { emailTriesPerAddressPerHour: config.subscribeLimitPerHour });
  const auth = createAdminAuth({
    db,
    clock,
    config,
    passwordHash: await adminPasswordHash(db, config.adminPassword, announceAdminPassword),
    keyedHash: deps.keyedHash,
  });
  return {
    site,
    jobs,
    polls,
    subscriptions,
    votes,
    stats: createStatsService(deps),
    profiles: createProfilesService(deps),
    breakdowns: createBreakdownsService(deps),
    openData: createOpenDataService(deps),
    embeds: createEmbedService(deps),
    suggestions: createSuggestionsService(deps),
    adminPolls: createAdminPollsService(deps, schedule),
    auth,
    mailStats: createMailStats(db, transport.kind),
    previews: createLinkPreviews({
      clock,
      site,
      activePoll,
      pastPollResults: (pollNumber) => polls.pastPollResults(pollNumber),
    }),
    /** Stops the timers and the mail connection, and writes the votes received (the database is the caller's). */
    async close() {
      jobs.stop();
      await votes.drained();
      transport.close();
    },
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
