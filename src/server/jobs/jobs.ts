/**
 * What the server does on its own: the daily switch and the weekly digest's queueing (checked
 * every 30 seconds, so a new day's poll goes live within half a minute of midnight, and at start-up), sending the outbox
 * (every 15 seconds, and right after something is queued), push reminders (every 20 seconds), and housekeeping (hourly: forgetting
 * unconfirmed subscriptions and old limit counts); with the daily switch, the held votes of ended
 * challenges, and at the close of voting those of every challenged network, that show no anomaly
 * and split like the rest of the poll are counted. Tests call `tick`, `sendMail` and
 * `housekeeping` with their own clock instead of starting the timers.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { OutboxWorker, RoundResult } from '../email/outbox.worker.js';
import type { ScheduleService, Transition } from '../polls/schedule.service.js';
import type { SendRound } from '../push/reminder-sender.js';

const TRANSITION_CHECK_MS = 30_000;
const OUTBOX_CHECK_MS = 15_000;
const HOUSEKEEPING_MS = 3_600_000;
/** Push reminders are checked this often: a teacher's 15:30 reminder leaves by 15:30:20. */
const REMINDER_CHECK_MS = 20_000;

export interface Jobs {
  /** The daily switch, then the outbox. */
  tick(): Promise<Transition>;
  sendMail(): Promise<RoundResult>;
  /** Something was queued: send soon. */
  mailQueued(): void;
  housekeeping(): Promise<void>;
  /** Queues the push reminders that are due and sends what is queued. */
  sendReminders(): Promise<SendRound>;
  start(): void;
  stop(): void;
}

export function createJobs({
  schedule,
  outbox,
  log,
  housekeeping,
  reminders,
  weekly,
  endedChallenges,
}: {
  /**
   * Counts the held votes of networks whose challenge ended, or whose poll's voting closed, that
   * show no anomaly and split like the rest of the poll (review.service.ts, releaseEndedChallenges
   * and releaseAtClose): checked with the daily switch.
   */
  endedChallenges?: () => Promise<number>;
  schedule: ScheduleService;
  outbox: OutboxWorker;
  /** Queues the week's digest once its Friday time has passed (digest/digest.service.ts): checked with the daily switch. */
  weekly: () => Promise<string | null>;
  reminders: () => Promise<SendRound>;
  log: FastifyBaseLogger;
  /** Deletes what is no longer needed; run hourly. */
  housekeeping: () => Promise<void>;
}): Jobs {
  const timers: NodeJS.Timeout[] = [];
  let started = false;
  let sending: Promise<RoundResult> | undefined;
  let ticking: Promise<Transition> | undefined;
  let reminding: Promise<SendRound> | undefined;

  function sendReminders(): Promise<SendRound> {
    reminding ??= reminders().finally(() => (reminding = undefined));
    return reminding;
  }

  function sendMail(): Promise<RoundResult> {
    // One round at a time per instance; a round asked for meanwhile joins the current one.
    sending ??= outbox.runOnce().finally(() => (sending = undefined));
    return sending;
  }

  async function transition(): Promise<Transition> {
    const result = await schedule.switchDay();
    if (result.activatedPollId !== null) log.info({ pollId: result.activatedPollId }, 'a new poll went live');
    try {
      const week = await weekly();
      if (week !== null) log.info({ week }, 'the weekly digest was queued');
    } catch (error) {
      log.error({ err: error }, 'queueing the weekly digest failed; will try again');
    }
    try {
      const released = (await endedChallenges?.()) ?? 0;
      if (released > 0) log.info({ released }, 'held votes of ended challenges were counted');
    } catch (error) {
      log.error({ err: error }, 'counting the held votes of ended challenges failed; will try again');
    }
    return result;
  }

  function tick(): Promise<Transition> {
    ticking ??= transition()
      .then(async (result) => {
        await sendMail();
        return result;
      })
      .finally(() => (ticking = undefined));
    return ticking;
  }

  const quietly = (work: () => Promise<unknown>, what: string) => () =>
    void work().catch((error: unknown) => log.error({ err: error }, `${what} failed; will try again`));

  return {
    tick,
    sendMail,
    housekeeping,
    sendReminders,
    mailQueued() {
      if (started) setImmediate(quietly(sendMail, 'sending e-mail'));
    },
    start() {
      started = true;
      quietly(tick, 'the daily switch')();
      timers.push(setInterval(quietly(tick, 'the daily switch'), TRANSITION_CHECK_MS));
      timers.push(setInterval(quietly(sendMail, 'sending e-mail'), OUTBOX_CHECK_MS));
      timers.push(setInterval(quietly(sendReminders, 'sending reminders'), REMINDER_CHECK_MS));
      quietly(housekeeping, 'housekeeping')();
      timers.push(setInterval(quietly(housekeeping, 'housekeeping'), HOUSEKEEPING_MS));
    },
    stop() {
      started = false;
      for (const timer of timers) clearInterval(timer);
      timers.length = 0;
    },
  };
}
