/** What every service needs from the outside world. */
import type { Clock } from './clock.js';
import type { Site } from './config.js';
import type { Db } from './db/connection.js';
import type { KeyedHash } from './http/address-limits.js';
import type { ActivePollCache, VoterChoices } from './polls/active-poll-cache.js';

export interface ServiceDeps {
  db: Db;
  clock: Clock;
  site: Site;
  activePoll: ActivePollCache;
  voterChoices: VoterChoices;
  /**
   * Keyed hash (of a client address, a voter id) under the site day's key, deleted the next day
   * (http/address-limits.ts): limits count them without storing them.
   */
  keyedHash: KeyedHash;
  /** Called after e-mail was queued, so the outbox worker sends it soon. */
  mailQueued: () => void;
}
