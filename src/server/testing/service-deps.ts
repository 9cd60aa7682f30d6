/**
 * What the services of one server instance need, for tests that build services themselves:
 * the test's database and clock, the test site, a copy of the active poll that never gets old
 * by itself (its monotonic clock stands still), no hashing and no outbox worker to wake.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { ActivePollCache, VoterChoices } from '../polls/active-poll-cache.js';
import type { ServiceDeps } from '../service-deps.js';
import { findVoterChoice } from '../votes/votes.repository.js';
import type { VotesIntegrity } from '../votes/votes.service.js';
import { createBallots } from '../integrity/ballot.js';
import { createIntegrity } from '../integrity/integrity.service.js';
import { createReviewService } from '../review/review.service.js';
import { openDatabaseEachTest } from './database-per-test.js';
import { testSite } from './test-clock.js';
import type { DatabaseKind } from './test-database.js';

function testServiceDeps(db: Db, clock: Clock): ServiceDeps {
  return {
    db,
    clock,
    site: testSite(),
    activePoll: new ActivePollCache(db, clock, 1000, () => 0),
    voterChoices: new VoterChoices((pollId, voterId) => findVoterChoice(db, pollId, voterId)),
    keyedHash: (value) => Promise.resolve(value),
    mailQueued: () => {},
  };
}

/**
 * A fresh database for each test of the calling describe block: `db` is this test's, and each
 * call of `deps()` is another server instance on it (its own copy of the active poll).
 */
export function serviceDepsEachTest(kind: DatabaseKind, clock: Clock): { readonly db: Db; deps: () => ServiceDeps } {
  let current: Db | undefined;
  openDatabaseEachTest(kind, (opened) => {
    current = opened;
  });
  const db = () => {
    if (!current) throw new Error('The test database is open only while a test runs.');
    return current;
  };
  return {
    get db() {
      return db();
    },
    deps: () => testServiceDeps(db(), clock),
  };
}

/** The integrity parts of one instance's vote path, with a fixed ballot key and no proof that passes. */
export function testVoteIntegrity(deps: ServiceDeps): VotesIntegrity {
  return {
    integrity: createIntegrity(deps),
    ballots: createBallots('a ballot key for tests'),
    proofs: { redeem: () => Promise.resolve(false) },
    review: createReviewService(deps),
  };
}
