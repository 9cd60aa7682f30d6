/** Integrity review: the day's bucket keys, the detector's judgements, staff actions, proofs of work. */
import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './time.js';

/** A site day's key for vote buckets: deleted after 14 days, which makes that day's buckets unlinkable. */
export interface IntegrityKeysTable {
  day: string;
  key: string;
}

export type BucketState = 'watch' | 'challenge';

/** A bucket's state on a poll, as the detector (integrity/detector.ts) last judged it, for every instance. */
export interface IntegrityBucketsTable {
  poll_id: number;
  bucket: string;
  state: BucketState;
  first_flagged_at: Timestamp;
  challenged_since: NullableTimestamp;
  /** The challenge lasts until the bucket has been quiet this long past its last suspicious minute. */
  challenged_until: NullableTimestamp;
  updated_at: Timestamp;
  /** What the detector saw, comma-separated (volume, skew, fast, no-ballot, regular). */
  reasons: Generated<string>;
}

export type IntegrityActionKind = 'discount' | 'restore' | 'release' | 'challenge-on' | 'challenge-off';

/** The append-only log of staff review. */
export interface IntegrityActionsTable {
  id: Generated<number>;
  poll_id: number;
  kind: IntegrityActionKind;
  bucket: string | null;
  from_at: NullableTimestamp;
  to_at: NullableTimestamp;
  reason: string;
  votes: number;
  actor: string;
  /** For a restore: the discount it undoes. */
  undoes_id: number | null;
  /** JSON [{dimension, group, option, votes}]: the group tallies the action took away (−) or gave back (+). */
  group_changes: Generated<string>;
  created_at: Timestamp;
}

/** A proof of work already counted (integrity/proof-of-work.ts), by its challenge's signature, until that expires. */
export interface ProofOfWorkRedeemedTable {
  challenge_signature: string;
  expires_at: Timestamp;
}
