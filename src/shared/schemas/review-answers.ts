/**
 * Staff review of a poll's votes (GET /api/admin/polls/:id/integrity and the changes). A network
 * is a bucket: a keyed hash of an IPv4 /24 or IPv6 /48 under the day's key, never an address.
 * Shares are fractions from 0 to 1; times are ISO instants.
 */
import { z } from '../zod.js';
import { adminPoll } from './admin-answers.js';
import { confirmation, resultItem } from './poll-answers.js';

const count = z.number().int().min(0);
const state = z.enum(['watch', 'challenge']);
const byStatus = z.object({ counted: count, held: count, discounted: count });

export const integrityAction = z
  .object({
    id: z.number().int(),
    kind: z.enum(['discount', 'restore', 'release', 'challenge-on', 'challenge-off']),
    bucket: z.string().nullable(),
    label: z.string().nullable(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    reason: z.string(),
    votes: count.meta({ description: 'How many votes it set aside, gave back or released.' }),
    actor: z.string(),
    undoesId: z.number().int().nullable(),
    undoneById: z.number().int().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'IntegrityAction', description: "One entry of a poll's integrity log." });

export const integrityBucket = z
  .object({
    bucket: z.string().meta({ description: 'The code to name this network by in a discount or a release.' }),
    label: z.string(),
    votes: count,
    firstVoteAt: z.string(),
    lastVoteAt: z.string(),
    peakPerMinute: count,
    topOption: z.object({ index: z.number().int(), share: z.number(), shareElsewhere: z.number() }).nullable(),
    medianPageMs: z.number().nullable(),
    withoutBallotShare: z.number(),
    freshCookieShare: z.number(),
    held: count,
    discounted: count,
    state: state.nullable(),
  })
  .meta({ id: 'IntegrityBucket' });

export const flaggedBurst = z
  .object({
    bucket: z.string(),
    label: z.string(),
    state,
    reasons: z.array(z.string()),
    from: z.string(),
    to: z.string(),
    votes: byStatus,
    preview: z.object({ results: z.array(resultItem), totalVotes: count }),
  })
  .meta({ id: 'FlaggedBurst' });

export const integrityReport = z
  .object({
    pollId: z.number().int(),
    pollNumber: z.number().int(),
    question: z.string(),
    options: z.array(z.string()),
    status: adminPoll.shape.status,
    votes: byStatus,
    results: z.array(resultItem),
    challengeEveryone: z.boolean(),
    minutes: z.array(
      z.object({ at: z.string(), counted: z.array(count), held: z.array(count), discounted: z.array(count) }),
    ),
    marks: z.array(z.object({ state, label: z.string().nullable(), from: z.string(), to: z.string() })),
    buckets: z.array(integrityBucket),
    otherBuckets: z.object({ buckets: count, votes: count }),
    votesWithoutBucket: count,
    bursts: z.array(flaggedBurst),
    /**
     * When the whole poll looked unlike itself (integrity/detector.ts, judgeSurge): from its
     * first flag to its end (or now), with the signals seen. Staff set one aside with a
     * discount by signal and time range.
     */
    surge: z
      .object({
        from: z.string(),
        to: z.string(),
        on: z.boolean(),
        signals: z.array(z.string()),
        votes: byStatus,
        firstTimeVotes: byStatus,
      })
      .nullable(),
    log: z.array(integrityAction),
  })
  .meta({ id: 'IntegrityReport' });

export const integrityChange = confirmation.extend({ action: integrityAction }).meta({ id: 'IntegrityChange' });

export const challengeChange = confirmation
  .extend({ challengeEveryone: z.boolean(), action: integrityAction.nullable() })
  .meta({ id: 'ChallengeChange' });
