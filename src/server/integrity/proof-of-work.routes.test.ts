/** GET /api/polls/:id/proof-of-work: on its own with simple buckets and levels, and in the whole app. */
import { verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiError, ProofOfWorkChallenge } from '../../shared/api.js';
import type { Db } from '../db/connection.js';
import { registerErrorHandler } from '../http/errors.js';
import { zodSerializerCompiler, zodValidatorCompiler } from '../http/validation.js';
import { openDatabaseEachTest } from '../testing/database-per-test.js';
import { decodeProof, solveInNode } from '../testing/proof-of-work-solver.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime, TestClock } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { createProofOfWork, PROOF_OF_WORK_ALGORITHM } from './proof-of-work.js';
import { proofOfWorkRoutes } from './proof-of-work.routes.js';

const BASE = 8;

describe.each(testDatabaseKinds())('the proof-of-work challenge route (%s)', (kind) => {
  const clock = new TestClock(newYorkTime('2026-11-21', '10:00'));
  let db: Db;
  openDatabaseEachTest(kind, (opened) => {
    db = opened;
  });

  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  /** The route alone: each client address is its own bucket, at the level the test sets. */
  async function routeOnly(level = 0) {
    const proofOfWork = createProofOfWork({ db, clock, key: 'a key for the route test', baseMaxNumber: BASE });
    const asked: [number, string][] = [];
    app = Fastify();
    app.setValidatorCompiler(zodValidatorCompiler);
    app.setSerializerCompiler(zodSerializerCompiler);
    registerErrorHandler(app);
    await app.register(proofOfWorkRoutes, {
      proofOfWork,
      bucketOf: async (ip) => `bucket:${ip}`,
      levelOf: (pollId, bucket) => {
        asked.push([pollId, bucket]);
        return level;
      },
    });
    return { app, proofOfWork, asked };
  }

  const challengeOf = (server: FastifyInstance, pollId: number | string, remoteAddress = '203.0.113.9') =>
    server.inject({ method: 'GET', url: `/api/polls/${pollId}/proof-of-work`, remoteAddress });

  it('answers a challenge the solver takes, never cached, bound to the poll and the caller’s bucket', async () => {
    const { app: server, proofOfWork, asked } = await routeOnly();
    const response = await challengeOf(server, 12);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    const challenge = response.json<ProofOfWorkChallenge>();
    expect(challenge).toEqual({
      parameters: {
        algorithm: PROOF_OF_WORK_ALGORITHM,
        cost: expect.any(Number) as number,
        keyLength: 32,
        keyPrefix: expect.stringMatching(/^[0-9a-f]{32}$/) as string,
        keySignature: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
        nonce: expect.stringMatching(/^[0-9a-f]{32}$/) as string,
        salt: expect.stringMatching(/^[0-9a-f]{32}$/) as string,
        data: {
          poll: 12,
          scope: expect.stringMatching(/^[0-9a-f]{32}$/) as string,
          expires: expect.any(Number) as number,
          level: 0,
        },
      },
      signature: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
    });
    expect(response.body).not.toContain('bucket:');
    expect(asked).toEqual([[12, 'bucket:203.0.113.9']]);

    const proof = await solveInNode(challenge);
    expect(await proofOfWork.redeem(proof, 12, 'bucket:198.51.100.7')).toBe(false);
    expect(await proofOfWork.redeem(proof, 12, 'bucket:203.0.113.9')).toBe(true);
  });

  it('hands out harder challenges at the level the detector names', async () => {
    const { app: server } = await routeOnly(2);
    const counters: number[] = [];
    for (let i = 0; i < 4; i++) {
      const proof = await solveInNode((await challengeOf(server, 12)).json<ProofOfWorkChallenge>());
      counters.push(decodeProof(proof).solution.counter);
    }
    for (const counter of counters) expect(counter).toBeGreaterThanOrEqual(BASE * 2);
  });

  it('refuses an id that is no poll’s with the usual error', async () => {
    const { app: server, asked } = await routeOnly();
    for (const id of ['0', '-1', 'abc', '1.5', '99999999999']) {
      const response = await challengeOf(server, id);
      expect(response.statusCode, id).toBe(400);
      expect(response.json<ApiError>()).toMatchObject({ code: 'validation', message: expect.any(String) as string });
    }
    expect(asked).toEqual([]);
  });
});

describe('the proof-of-work challenge in the whole app', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('answers anyone a challenge, counted with the writes of their address', async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_WRITES_PER_MINUTE: '3' } });
    const ask = () => t?.app.inject({ method: 'GET', url: '/api/polls/1/proof-of-work' });
    for (let i = 0; i < 3; i++) {
      const response = await ask();
      expect(response?.statusCode).toBe(200);
      expect(response?.headers['cache-control']).toBe('no-store');
      expect(response?.json<ProofOfWorkChallenge>().parameters.algorithm).toBe(PROOF_OF_WORK_ALGORITHM);
    }
    const refused = await ask();
    expect(refused?.statusCode).toBe(429);
    expect(refused?.json<ApiError>()).toMatchObject({ code: 'rate-limited' });
  });

  it('signs with the one key of the whole site, kept in its settings', async () => {
    t = await createTestApp('sqlite');
    const keys = await t.db.selectFrom('settings').select('value').where('name', '=', 'proof_of_work_key').execute();
    expect(keys).toHaveLength(1);
    const challenge = (
      await t.app.inject({ method: 'GET', url: '/api/polls/3/proof-of-work' })
    ).json<ProofOfWorkChallenge>();
    const { challenge: signed, solution } = decodeProof(await solveInNode(challenge));
    const check = (key: string) => verifySolution({ challenge: signed, solution, deriveKey, hmacSignatureSecret: key });
    expect((await check(keys[0]?.value ?? '')).verified).toBe(true);
    expect((await check('any other key')).verified).toBe(false);
  });
});
