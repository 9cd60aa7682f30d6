/**
 * The proof of work a vote carries when its network is challenged (DESIGN.md, Vote integrity):
 * an ALTCHA challenge, made and checked with altcha-lib 2 (the protocol the altcha widget 3
 * speaks), solved in the visitor's browser by the widget package's own solver and worker.
 *
 * - PBKDF2/SHA-256: WebCrypto in the browser (no WebAssembly, so the pages' CSP stays as it
 *   is), and the iterations run natively in a phone's browser as in a script's Node, so a
 *   script gains little over a teacher. With plain SHA-256 each attempt is one WebCrypto call,
 *   whose overhead the browser pays and a script's tight loop does not.
 * - The work is a number: the server picks a counter, derives its key and publishes the key's
 *   first half; the solver tries counters from 0 until it finds it (ALTCHA's deterministic
 *   mode). The counter is drawn from the upper half of the level's range, so no challenge is
 *   cheap by luck, and each level doubles the range. Checking is two HMACs (the challenge's
 *   signature, and the signature of the derived key made when the challenge was): it costs the
 *   same whatever the level.
 * - Bound to the poll, the bucket and five minutes: the challenge's signed data carries the
 *   poll, a keyed digest of the bucket (the bucket's label never leaves the server), the level
 *   (a vote that needs a level-2 proof refuses a level-0 one) and the expiry, checked against
 *   the site's clock. Not ALTCHA's own `expiresAt`: altcha-lib checks
 *   that against the machine's clock, which is not the one the site's time comes from.
 * - Redeemed once, on any instance: the signature of the challenge goes into
 *   proof_of_work_redeemed, whose primary key lets exactly one insert win.
 */
import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { ProofOfWorkChallenge } from '../../shared/api.js';
import { PROOF_MAX_LENGTH } from '../../shared/limits.js';
import { z } from '../../shared/zod.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connection.js';
import { siteKey } from '../db/settings.js';
import { deleteRedeemedBefore, insertRedeemed } from './proof-of-work.repository.js';

export type AltchaChallenge = ProofOfWorkChallenge;

export const PROOF_OF_WORK_ALGORITHM = 'PBKDF2/SHA-256';
/**
 * PBKDF2 iterations per attempt. Enough that the browser's per-attempt overhead (a WebCrypto
 * call from a worker) is small beside the hashing, few enough that making a challenge (one
 * derivation) costs the server a fraction of a millisecond.
 */
export const PROOF_OF_WORK_COST = 1_000;
/**
 * The counter range at level 0: the solver tries about 0.75 × this many keys. Chromium with
 * two workers on a 2-core machine solves it in about 0.4 s (docs/performance.md); a low-end
 * phone, four times slower a core as Lighthouse's mobile throttling assumes, in about 1.5 s.
 */
export const BASE_MAX_NUMBER = 2_500;
/**
 * Level n doubles the range n times, up to this: level 3 is about 12 s on a low-end phone,
 * past what a teacher between lessons waits for. A burst that goes on beyond it is held, not
 * made to wait longer.
 */
export const MAX_LEVEL = 3;
/** A challenge is good this long after it was issued. */
export const PROOF_OF_WORK_TTL_MS = 5 * 60_000;

export interface ProofOfWork {
  /** An ALTCHA challenge for a vote on pollId from bucket; level 0 is about 1.5 s on a low-end phone, each level twice as hard. */
  challenge(pollId: number, bucket: string, level: number): Promise<AltchaChallenge>;
  /**
   * True once only: `proof` (the widget's payload, base64 JSON of the challenge and its
   * solution) solves a challenge issued for this poll and bucket at level `least` or above,
   * unexpired, never redeemed before on any instance. Anything malformed or hostile is false,
   * never an error; a proof refused before its check (a level too low) is not used up.
   */
  redeem(proof: string, pollId: number, bucket: string, least?: number): Promise<boolean>;
  /** Forgets the redeemed proofs whose challenges have expired (housekeeping). */
  purgeExpired(): Promise<void>;
}

export interface ProofOfWorkOptions {
  db: Db;
  clock: Clock;
  /** The HMAC key the challenges are signed with (`proofOfWorkKey`). */
  key: string;
  /** The counter range at level 0 (tests make it tiny). */
  baseMaxNumber?: number;
}

/** The key of the challenges' signatures: PROOF_OF_WORK_KEY's, or made on the site's first start and shared by every instance. */
export function proofOfWorkKey(db: Db, fromEnvironment?: string): Promise<string> {
  return siteKey(db, 'proof_of_work_key', { fromEnvironment });
}

const hex = (length?: number) =>
  length === undefined ? z.string().regex(/^(?:[0-9a-f]{2})+$/) : z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`));

/**
 * What a proof must look like before anything is computed from it: exactly the fields a
 * challenge of ours has (any other field would fail the signature anyway), and a solution.
 */
const proofPayload = z.object({
  challenge: z.object({
    parameters: z.strictObject({
      algorithm: z.literal(PROOF_OF_WORK_ALGORITHM),
      cost: z.number().int().positive(),
      keyLength: z.number().int().positive(),
      keyPrefix: hex(),
      keySignature: hex(64),
      nonce: hex(),
      salt: hex(),
      // No level: a challenge issued before levels were signed (level 0).
      data: z.strictObject({
        poll: z.number().int(),
        scope: hex(32),
        expires: z.number().int(),
        level: z.number().int().min(0).max(MAX_LEVEL).optional(),
      }),
    }),
    signature: hex(64),
  }),
  solution: z.object({
    counter: z.number().int().nonnegative(),
    derivedKey: hex(),
    time: z.number().optional(),
  }),
});

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function parseProof(proof: unknown) {
  if (typeof proof !== 'string' || proof.length > PROOF_MAX_LENGTH || !BASE64.test(proof)) return null;
  try {
    const parsed = proofPayload.safeParse(JSON.parse(Buffer.from(proof, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function createProofOfWork({
  db,
  clock,
  key,
  baseMaxNumber = BASE_MAX_NUMBER,
}: ProofOfWorkOptions): ProofOfWork {
  const derived = (purpose: string) => createHmac('sha256', key).update(purpose).digest('hex');
  const keySignatureSecret = derived('proof-of-work derived keys');
  const scopeKey = derived('proof-of-work scope');
  /** The poll and bucket a challenge is for, as a digest: the challenge names no bucket. */
  const scopeOf = (pollId: number, bucket: string) =>
    createHmac('sha256', scopeKey).update(`${pollId}\n${bucket}`).digest('hex').slice(0, 32);

  return {
    async challenge(pollId, bucket, level) {
      const steps = Number.isFinite(level) ? Math.min(MAX_LEVEL, Math.max(0, Math.floor(level))) : 0;
      const maxNumber = Math.max(2, baseMaxNumber * 2 ** steps);
      const expires = Math.floor((clock.now().getTime() + PROOF_OF_WORK_TTL_MS) / 1000);
      return createChallenge({
        algorithm: PROOF_OF_WORK_ALGORITHM,
        cost: PROOF_OF_WORK_COST,
        counter: randomInt(maxNumber, Math.ceil(maxNumber / 2)),
        deriveKey,
        // Signed with the rest, so a vote that needs a harder proof can tell a cheap one.
        data: { poll: pollId, scope: scopeOf(pollId, bucket), expires, level: steps },
        hmacSignatureSecret: key,
        hmacKeySignatureSecret: keySignatureSecret,
      });
    },

    async redeem(proof, pollId, bucket, least = 0) {
      const payload = parseProof(proof);
      if (!payload) return false;
      const { challenge, solution } = payload;
      const { data } = challenge.parameters;
      const expiresAt = data.expires * 1000;
      if (
        data.poll !== pollId ||
        data.scope !== scopeOf(pollId, bucket) ||
        (data.level ?? 0) < least ||
        expiresAt <= clock.now().getTime()
      ) {
        return false;
      }
      let verified: boolean;
      try {
        ({ verified } = await verifySolution({
          challenge,
          solution,
          deriveKey,
          hmacSignatureSecret: key,
          hmacKeySignatureSecret: keySignatureSecret,
        }));
      } catch {
        return false;
      }
      if (!verified) return false;
      // Last, so that only a proof that really solves one of our challenges is written down.
      return insertRedeemed(db, challenge.signature, new Date(expiresAt).toISOString());
    },

    purgeExpired: () => deleteRedeemedBefore(db, clock.now().toISOString()),
  };
}
