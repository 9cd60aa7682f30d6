/**
 * The proof of work on real databases: each solution counts once, for the poll and bucket its
 * challenge was made for, within five minutes on the site's clock, on any instance; whatever
 * else arrives as a proof is refused without an error.
 */
import { solveChallenge as solveLikeTheWidget, pbkdf2 as widgetPbkdf2 } from 'altcha/lib';
import { describe, expect, it } from 'vitest';
import { PROOF_MAX_LENGTH } from '../../shared/limits.js';
import type { Db } from '../db/connection.js';
import { openDatabase } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { openDatabaseEachTest } from '../testing/database-per-test.js';
import { decodeProof, encodeProof, solveInNode } from '../testing/proof-of-work-solver.js';
import { newYorkTime, TestClock } from '../testing/test-clock.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import {
  createProofOfWork,
  MAX_LEVEL,
  PROOF_OF_WORK_ALGORITHM,
  PROOF_OF_WORK_TTL_MS,
  proofOfWorkKey,
  type ProofOfWork,
} from './proof-of-work.js';

/** Tiny, so that the tests solve in milliseconds: level n tries at most 8 × 2^n keys. */
const BASE = 8;
const POLL = 7;
const BUCKET = 'a1b2c3d4e5f60718';
const KEY = 'a test key that is long enough to sign with';

const start = () => newYorkTime('2026-11-21', '10:00');

async function solvedProof(pow: ProofOfWork, pollId = POLL, bucket = BUCKET, level = 0) {
  return solveInNode(await pow.challenge(pollId, bucket, level));
}

/** The proof with its decoded JSON changed by `edit`, encoded again. */
function edited(proof: string, edit: (payload: ReturnType<typeof decodeProof>) => void): string {
  const payload = decodeProof(proof);
  edit(payload);
  return encodeProof(payload.challenge, payload.solution);
}

describe.each(testDatabaseKinds())('the proof of work (%s)', (kind) => {
  const clock = new TestClock(start());
  let db: Db;
  openDatabaseEachTest(kind, (opened) => {
    db = opened;
    clock.set(start());
  });
  const proofOfWork = (key = KEY) => createProofOfWork({ db, clock, key, baseMaxNumber: BASE });

  it('issues a signed PBKDF2/SHA-256 challenge that names the poll and its expiry, but not the bucket', async () => {
    const challenge = await proofOfWork().challenge(POLL, BUCKET, 0);
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters).toMatchObject({
      algorithm: PROOF_OF_WORK_ALGORITHM,
      keySignature: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
      data: { poll: POLL, expires: (start().getTime() + PROOF_OF_WORK_TTL_MS) / 1000 },
    });
    expect(JSON.stringify(challenge)).not.toContain(BUCKET);
  });

  it('redeems a valid solution once; the second time it is refused', async () => {
    const pow = proofOfWork();
    const proof = await solvedProof(pow);
    expect(await pow.redeem(proof, POLL, BUCKET)).toBe(true);
    expect(await pow.redeem(proof, POLL, BUCKET)).toBe(false);
    // Another instance, with the same key, finds it redeemed too.
    expect(await proofOfWork().redeem(proof, POLL, BUCKET)).toBe(false);
    // A new challenge is a new proof.
    expect(await pow.redeem(await solvedProof(pow), POLL, BUCKET)).toBe(true);
  });

  it('lets exactly one of many concurrent redemptions of one proof through', async () => {
    const pow = proofOfWork();
    const proof = await solvedProof(pow);
    const answers = await Promise.all(Array.from({ length: 12 }, () => pow.redeem(proof, POLL, BUCKET)));
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('refuses a solution for another poll or from another bucket', async () => {
    const pow = proofOfWork();
    const proof = await solvedProof(pow);
    expect(await pow.redeem(proof, POLL + 1, BUCKET)).toBe(false);
    expect(await pow.redeem(proof, POLL, 'f0e1d2c3b4a59687')).toBe(false);
    // Refusals use nothing up: the right poll and bucket still redeem it.
    expect(await pow.redeem(proof, POLL, BUCKET)).toBe(true);
  });

  it('signs its level, and refuses below the level a vote needs without using the proof up', async () => {
    const pow = proofOfWork();
    const cheap = await solvedProof(pow, POLL, BUCKET, 0);
    const counted = await solvedProof(pow, POLL, BUCKET, 2);
    expect(decodeProof(counted).challenge.parameters.data.level).toBe(2);
    expect(await pow.redeem(cheap, POLL, BUCKET, 2)).toBe(false);
    expect(await pow.redeem(counted, POLL, BUCKET, 3)).toBe(false);
    // A level claimed, not signed: the signature refuses it.
    const claimed = edited(cheap, (payload) => {
      payload.challenge.parameters.data.level = 2;
    });
    expect(await pow.redeem(claimed, POLL, BUCKET, 2)).toBe(false);
    expect(await pow.redeem(counted, POLL, BUCKET, 2)).toBe(true);
    // Refused for its level, the cheap one was not used: it still counts where level 0 does.
    expect(await pow.redeem(cheap, POLL, BUCKET, 0)).toBe(true);
  });

  it('refuses a solution once its challenge is five minutes old on the site clock', async () => {
    const pow = proofOfWork();
    const inTime = await solvedProof(pow);
    const late = await solvedProof(pow);
    clock.advance(PROOF_OF_WORK_TTL_MS - 1000);
    expect(await pow.redeem(inTime, POLL, BUCKET)).toBe(true);
    clock.advance(1000);
    expect(await pow.redeem(late, POLL, BUCKET)).toBe(false);
  });

  it('refuses a tampered challenge or solution', async () => {
    const pow = proofOfWork();
    const proof = await solvedProof(pow);
    const { challenge, solution } = decodeProof(proof);
    const tampered = [
      // Its data rewritten for a longer life or for another poll: the signature no longer fits.
      edited(proof, (p) => void (p.challenge.parameters.data.expires = challenge.parameters.data.expires + 3600)),
      edited(proof, (p) => void (p.challenge.parameters.data.poll = POLL + 1)),
      // An easier key to find, or a cheaper one.
      edited(proof, (p) => void (p.challenge.parameters.keyPrefix = '00')),
      edited(proof, (p) => void (p.challenge.parameters.cost = 1)),
      // Someone else's signature, or none.
      edited(proof, (p) => void (p.challenge.signature = 'ab'.repeat(32))),
      edited(proof, (p) => {
        delete (p.challenge as { signature?: string }).signature;
      }),
      // A field of its own added: the challenge is not one of ours.
      edited(proof, (p) => void Object.assign(p.challenge.parameters, { expiresAt: 4_102_444_800 })),
      // A wrong key, or the right one for another counter.
      edited(proof, (p) => void (p.solution.derivedKey = 'cd'.repeat(32))),
      edited(proof, (p) => void (p.solution.derivedKey = solution.derivedKey.toUpperCase())),
      edited(proof, (p) => void (p.solution.counter = -1)),
    ];
    for (const forged of tampered) expect(await pow.redeem(forged, POLL, BUCKET)).toBe(false);
    // A challenge signed with another site's key is not ours either.
    const foreign = await solvedProof(proofOfWork('another site, another key'));
    expect(await pow.redeem(foreign, POLL, BUCKET)).toBe(false);
    expect(await pow.redeem(proof, POLL, BUCKET)).toBe(true);
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses garbage and oversized proofs with false, never an error', async () => {
    const pow = proofOfWork();
    const proof = await solvedProof(pow);
    const base64 = (text: string) => Buffer.from(text).toString('base64');
    const garbage: unknown[] = [
      '',
      'not a proof at all',
      '%%%%',
      base64('not json'),
      base64('null'),
      base64('[]'),
      base64('{}'),
      base64('{"challenge":null,"solution":null}'),
      base64('{"challenge":{"parameters":{}},"solution":{}}'),
      // A prototype smuggled into the signed parameters.
      base64(JSON.stringify(decodeProof(proof)).replace('"parameters":{', '"parameters":{"__proto__":{"cost":1},')),
      base64(JSON.stringify({ challenge: decodeProof(proof).challenge, solution: { counter: '1', derivedKey: 1 } })),
      edited(proof, (p) => void (p.solution.counter = 2 ** 53)),
      edited(proof, (p) => void (p.challenge.parameters.nonce = 'zz')),
      proof + 'A'.repeat(PROOF_MAX_LENGTH),
      'A'.repeat(PROOF_MAX_LENGTH + 4),
      base64('{"a":' + '['.repeat(1000) + ']'.repeat(1000) + '}'),
      42,
      null,
    ];
    for (const junk of garbage) await expect(pow.redeem(junk as string, POLL, BUCKET)).resolves.toBe(false);
    expect(await db.selectFrom('proof_of_work_redeemed').selectAll().execute()).toEqual([]);
  });

  it('makes each level twice as hard as the one before, up to the last', async () => {
    const pow = proofOfWork();
    const counterAt = async (level: number) =>
      decodeProof(await solvedProof(pow, POLL, BUCKET, level)).solution.counter;
    for (let round = 0; round < 5; round++) {
      for (const level of [0, 1, 2, MAX_LEVEL]) {
        const counter = await counterAt(level);
        // Drawn from the upper half of the level's range: never cheap by luck.
        expect(counter).toBeGreaterThanOrEqual((BASE * 2 ** level) / 2);
        expect(counter).toBeLessThanOrEqual(BASE * 2 ** level);
      }
      expect(await counterAt(MAX_LEVEL + 5)).toBeLessThanOrEqual(BASE * 2 ** MAX_LEVEL);
      expect(await counterAt(-3)).toBeLessThanOrEqual(BASE);
      expect(await counterAt(Number.NaN)).toBeLessThanOrEqual(BASE);
    }
  });

  it('accepts what the altcha widget’s own solver finds', async () => {
    const pow = proofOfWork();
    const challenge = await pow.challenge(POLL, BUCKET, 0);
    const solution = await solveLikeTheWidget({ challenge, deriveKey: widgetPbkdf2.deriveKey });
    expect(solution).not.toBeNull();
    expect(await pow.redeem(encodeProof(challenge, solution), POLL, BUCKET)).toBe(true);
  });

  it('forgets redeemed proofs once their challenges have expired, and not before', async () => {
    const pow = proofOfWork();
    const proof = await solvedProof(pow);
    expect(await pow.redeem(proof, POLL, BUCKET)).toBe(true);
    clock.advance(PROOF_OF_WORK_TTL_MS - 1000);
    await pow.purgeExpired();
    expect(await db.selectFrom('proof_of_work_redeemed').selectAll().execute()).toHaveLength(1);
    clock.advance(2000);
    await pow.purgeExpired();
    expect(await db.selectFrom('proof_of_work_redeemed').selectAll().execute()).toEqual([]);
    // Forgotten, and still refused: it has expired.
    expect(await pow.redeem(proof, POLL, BUCKET)).toBe(false);
  });

  it('makes its key once and keeps it in the settings, for every instance', async () => {
    const first = await proofOfWorkKey(db);
    expect(first).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(await proofOfWorkKey(db)).toBe(first);
    const settings = await db.selectFrom('settings').selectAll().where('name', '=', 'proof_of_work_key').execute();
    expect(settings).toEqual([{ name: 'proof_of_work_key', value: first }]);
  });
});

// Two instances are two connection pools on one PostgreSQL database, each with the key it read
// from the settings. (Two SQLite connections in one process cannot stand in for two servers.)
if (testDatabaseKinds().includes('postgres')) {
  describe('the proof of work on two instances of one PostgreSQL database', () => {
    it('refuses on one instance a solution redeemed on the other, and lets one of a concurrent pair through', async () => {
      const database = await createTestDatabase('postgres');
      const dbA = openDatabase(database.target);
      const dbB = openDatabase(database.target);
      try {
        await migrateToLatest(dbA);
        const clock = new TestClock(start());
        const instance = async (db: Db) =>
          createProofOfWork({ db, clock, key: await proofOfWorkKey(db), baseMaxNumber: BASE });
        const [a, b] = [await instance(dbA), await instance(dbB)];

        const proof = await solvedProof(a);
        expect(await b.redeem(proof, POLL, BUCKET)).toBe(true);
        expect(await a.redeem(proof, POLL, BUCKET)).toBe(false);
        expect(await b.redeem(proof, POLL, BUCKET)).toBe(false);

        for (let round = 0; round < 5; round++) {
          const raced = await solvedProof(b);
          const answers = await Promise.all([a, b, a, b].map((pow) => pow.redeem(raced, POLL, BUCKET)));
          expect(answers.filter(Boolean)).toHaveLength(1);
        }
      } finally {
        await dbA.destroy();
        await dbB.destroy();
        await database.drop();
      }
    });
  });
}
