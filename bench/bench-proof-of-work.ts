/**
 * The proof of work (src/server/integrity/proof-of-work.ts), in this process, for information:
 * what checking one solution costs the server, and what one solution at level 0 and at
 * COUNTED_PROOF_LEVEL (what a first-time vote from a challenged network must bring) costs a script
 * on one core, so what a smart stuffer (one that loads pages and solves every challenge) gets
 * per CPU core. Each figure is the median of the rounds.
 *
 * The stuffer is measured two ways: altcha-lib's own solver (PBKDF2 on libuv's threads, one
 * attempt at a time), and a tight synchronous loop of node:crypto's pbkdf2Sync, the fastest
 * plain Node way; the faster of the two is the stuffer's rate.
 */
import { pbkdf2Sync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../src/server/db/connection.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import { COUNTED_PROOF_LEVEL } from '../src/server/integrity/detector.js';
import { BASE_MAX_NUMBER, createProofOfWork, PROOF_OF_WORK_COST } from '../src/server/integrity/proof-of-work.js';
import { decodeProof, encodeProof, solveInNode } from '../src/server/testing/proof-of-work-solver.js';
import type { ProofOfWorkChallenge } from '../src/shared/api.js';
import { median } from '../src/shared/median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Solution checks timed per round. */
const CHECKS = 300;
/** Level-0 solutions timed per round, per solver. */
const SOLUTIONS = 12;
/** Solutions at COUNTED_PROOF_LEVEL timed per round, by the loop (each is 4 times level 0's work). */
const COUNTED_SOLUTIONS = 4;
const POLL = 1;
const BUCKET = '0123456789abcdef';

/** The counter whose key the challenge names, found as a script would: trying 0, 1, 2… synchronously. */
function solveSync(challenge: ProofOfWorkChallenge): number {
  const { nonce, salt, keyPrefix, cost, keyLength } = challenge.parameters;
  const password = Buffer.alloc(nonce.length / 2 + 4);
  password.write(nonce, 'hex');
  const saltBytes = Buffer.from(salt, 'hex');
  const prefix = Buffer.from(keyPrefix, 'hex');
  for (let counter = 0; ; counter += 1) {
    password.writeUInt32BE(counter, nonce.length / 2);
    const key = pbkdf2Sync(password, saltBytes, cost, keyLength, 'sha256');
    if (key.subarray(0, prefix.length).equals(prefix)) return counter;
  }
}

async function timeEach(times: number, work: (i: number) => unknown): Promise<number[]> {
  const taken: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await work(i);
    taken.push(performance.now() - started);
  }
  return taken;
}

/** Proofs of fresh challenges, solved beforehand: timing their checks times nothing else. */
async function solvedProofs(count: number, challenge: () => Promise<ProofOfWorkChallenge>): Promise<string[]> {
  const proofs: string[] = [];
  for (let i = 0; i < count; i += 1) proofs.push(await solveInNode(await challenge()));
  return proofs;
}

export async function measureProofOfWork(work: string): Promise<void> {
  const file = path.join(work, 'proof-of-work.sqlite');
  const db = openDatabase({ kind: 'sqlite', file });
  try {
    await migrateToLatest(db);
    const clock = { now: () => new Date() };
    const key = 'bench proof-of-work key';
    // Checking costs the same at every level; tiny challenges make the proofs quick to prepare.
    const quick = createProofOfWork({ db, clock, key, baseMaxNumber: 4 });
    const real = createProofOfWork({ db, clock, key });

    const checks: number[] = [];
    const redemptions: number[] = [];
    const library: number[] = [];
    const loop: number[] = [];
    /** CPU-seconds (user + system) of one solution by the loop: the stuffer's real cost, whatever the load. */
    const loopCpu: number[] = [];
    /** The same for one solution at COUNTED_PROOF_LEVEL: what each counted vote past the first-time ceiling costs. */
    const countedCpu: number[] = [];
    const countedWall: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const proofs = await solvedProofs(CHECKS, () => quick.challenge(POLL, BUCKET, 0));
      // A wrong key for a signed challenge of ours: every check runs (shape, poll, bucket, expiry,
      // the challenge's signature, the key's), and nothing is written.
      const wrong = proofs.map((proof) => {
        const { challenge, solution } = decodeProof(proof);
        return encodeProof(challenge, {
          ...solution,
          derivedKey: solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0')),
        });
      });
      checks.push(median(await timeEach(CHECKS, (i) => quick.redeem(wrong[i] ?? '', POLL, BUCKET))) * 1000);
      redemptions.push(median(await timeEach(CHECKS, (i) => quick.redeem(proofs[i] ?? '', POLL, BUCKET))) * 1000);

      const challenges = await Promise.all(Array.from({ length: SOLUTIONS }, () => real.challenge(POLL, BUCKET, 0)));
      library.push(median(await timeEach(SOLUTIONS, (i) => solveInNode(challenges[i] as ProofOfWorkChallenge))));
      const cpuBefore = process.cpuUsage();
      loop.push(median(await timeEach(SOLUTIONS, (i) => solveSync(challenges[i] as ProofOfWorkChallenge))));
      const cpu = process.cpuUsage(cpuBefore);
      loopCpu.push((cpu.user + cpu.system) / 1e6 / SOLUTIONS);

      const harder = await Promise.all(
        Array.from({ length: COUNTED_SOLUTIONS }, () => real.challenge(POLL, BUCKET, COUNTED_PROOF_LEVEL)),
      );
      const countedBefore = process.cpuUsage();
      countedWall.push(median(await timeEach(COUNTED_SOLUTIONS, (i) => solveSync(harder[i] as ProofOfWorkChallenge))));
      const countedUsed = process.cpuUsage(countedBefore);
      countedCpu.push((countedUsed.user + countedUsed.system) / 1e6 / COUNTED_SOLUTIONS);
    }
    const fastest = Math.min(median(library), median(loop));
    console.log('Proof of work (for information; medians of the rounds):');
    console.log(
      `  one solution check ${median(checks).toFixed(0)} µs; with its redemption written (SQLite) ` +
        `${median(redemptions).toFixed(0)} µs`,
    );
    console.log(
      `  one level-0 solution in Node, one core (PBKDF2/SHA-256, ${PROOF_OF_WORK_COST} iterations, counter ` +
        `${BASE_MAX_NUMBER / 2}–${BASE_MAX_NUMBER}): altcha-lib's solver ${median(library).toFixed(0)} ms, ` +
        `a pbkdf2Sync loop ${median(loop).toFixed(0)} ms`,
    );
    console.log(
      `  a smart stuffer solving every challenge: ${Math.round(60_000 / fastest)} votes per minute per CPU core ` +
        `at level 0, ${Math.round(60_000 / fastest / 8)} at level 3`,
    );
    console.log(
      `  CPU time of one solution by the loop (user + system, the mean of each round's): level 0 ` +
        `${median(loopCpu).toFixed(2)} CPU-s; level ${COUNTED_PROOF_LEVEL}, what each first-time vote ` +
        `from a challenged network must bring to count, ${median(countedCpu).toFixed(2)} CPU-s ` +
        `(${median(countedWall).toFixed(0)} ms)\n`,
    );
  } finally {
    await db.destroy();
    fs.rmSync(file, { force: true });
  }
}
