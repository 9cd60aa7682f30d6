/**
 * The open data is built once per change of the past polls, not per request: counted here by
 * the service's own tally of builds, on two server instances sharing one database, through the
 * real routes.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { OPEN_DATA_PATHS } from '../../shared/open-data.js';
import { createAdminPollsService } from '../admin/admin-polls.service.js';
import { registerErrorHandler } from '../http/errors.js';
import { createScheduleService } from '../polls/schedule.service.js';
import { insertVoteRow, seedPoll } from '../testing/fixtures.js';
import { serviceDepsEachTest } from '../testing/service-deps.js';
import { newYorkTime, TestClock } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { openDataRoutes } from './open-data.routes.js';
import { createOpenDataService, PAST_POLLS_VERSION_MAX_AGE_MS } from './open-data.service.js';

const PATHS = Object.values(OPEN_DATA_PATHS);

describe.each(testDatabaseKinds())('open data, built once per change (%s)', (kind) => {
  const clock = new TestClock(newYorkTime('2026-11-21', '10:00'));
  const services = serviceDepsEachTest(kind, clock);
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    clock.set(newYorkTime('2026-11-21', '10:00'));
  });

  /** One server instance on the test's database: its open data, behind the real routes, and its staff's calls. */
  async function instance() {
    const deps = services.deps();
    const openData = createOpenDataService(deps);
    const app = Fastify();
    registerErrorHandler(app);
    await app.register(openDataRoutes, { openData });
    apps.push(app);
    const schedule = createScheduleService(deps);
    return {
      openData,
      schedule,
      staff: createAdminPollsService(deps, schedule),
      get: (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers }),
    };
  }

  const seedPast = () =>
    seedPoll(services.db, {
      question: 'Should phones be banned in class?',
      options: ['Yes', 'No'],
      status: 'past',
      liveDate: '2026-11-20',
      votes: [3, 1],
    });

  it('builds each document once, however often it is asked for, and not again while nothing changes', async () => {
    await seedPast();
    const site = await instance();
    for (let i = 0; i < 3; i += 1) {
      for (const path of PATHS) expect((await site.get(path)).statusCode).toBe(200);
    }
    expect(site.openData.builds).toBe(3);
    // Asked for all at once, a document is built once too.
    const other = await instance();
    const answers = await Promise.all(Array.from({ length: 10 }, () => other.get(OPEN_DATA_PATHS.json)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(200));
    expect(other.openData.builds).toBe(1);
    // The version is read again after a second; it has not moved, so nothing is built.
    clock.advance(PAST_POLLS_VERSION_MAX_AGE_MS);
    for (const path of PATHS) expect((await site.get(path)).statusCode).toBe(200);
    expect(site.openData.builds).toBe(3);
  });

  it('answers If-None-Match without building anything more', async () => {
    await seedPast();
    const site = await instance();
    const first = await site.get(OPEN_DATA_PATHS.json);
    const etag = String(first.headers.etag);
    expect(site.openData.builds).toBe(1);
    for (let i = 0; i < 3; i += 1) {
      const again = await site.get(OPEN_DATA_PATHS.json, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    }
    const brotli = await site.get(OPEN_DATA_PATHS.json, { 'accept-encoding': 'br' });
    const again = await site.get(OPEN_DATA_PATHS.json, {
      'accept-encoding': 'br',
      'if-none-match': String(brotli.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(site.openData.builds).toBe(1);
  });

  it('builds again when what past polls show changes, on any instance, seen within a second', async () => {
    const unanswered = await seedPoll(services.db, {
      question: 'Nobody answered this one?',
      status: 'past',
      liveDate: '2026-11-19',
    });
    const past = await seedPast();
    const today = await seedPoll(services.db, { question: 'Today: longer recess?', options: ['Yes', 'No'] });
    const tomorrow = await seedPoll(services.db, {
      question: 'Tomorrow: later start?',
      status: 'scheduled',
      liveDate: '2026-11-22',
    });
    const [here, there] = [await instance(), await instance()];
    const polls = async () => {
      const response = await here.get(OPEN_DATA_PATHS.json);
      return response.json<{ polls: { question: string; totalVotes: number }[] }>().polls;
    };
    expect((await polls()).map((poll) => poll.question)).toEqual([
      'Nobody answered this one?',
      'Should phones be banned in class?',
    ]);
    expect(here.openData.builds).toBe(1);
    /** What `here` serves once a second has passed: the change, built once. */
    const afterASecond = async () => {
      clock.advance(PAST_POLLS_VERSION_MAX_AGE_MS);
      const seen = await polls();
      expect(await polls()).toEqual(seen);
      return seen;
    };

    // Staff on the other instance correct a past poll's question.
    await there.staff.update(past.id, {
      question: 'Should phones be banned during class?',
      description: undefined,
      options: ['Yes', 'No'],
      liveDate: '2026-11-20',
      askedBefore: null,
    });
    expect((await afterASecond()).map((poll) => poll.question)).toEqual([
      'Nobody answered this one?',
      'Should phones be banned during class?',
    ]);
    expect(here.openData.builds).toBe(2);

    // Midnight: today's poll goes past.
    clock.set(newYorkTime('2026-11-22', '00:00:05'));
    expect((await there.schedule.switchDay()).activatedPollId).toBe(tomorrow.id);
    expect((await afterASecond()).map((poll) => poll.question)).toEqual([
      'Nobody answered this one?',
      'Should phones be banned during class?',
      'Today: longer recess?',
    ]);
    expect(here.openData.builds).toBe(3);

    // A vote accepted just before its poll went past, written just after.
    await insertVoteRow(services.db, { pollId: today.id, optionIndex: 1 });
    expect((await afterASecond()).map((poll) => poll.totalVotes)).toEqual([0, 4, 1]);
    expect(here.openData.builds).toBe(4);

    // Staff delete a past poll (one without votes: the votes counted on past polls stay as they were).
    expect(await there.staff.remove(unanswered.id, { withVotes: false })).toBe('deleted');
    expect((await afterASecond()).map((poll) => poll.question)).toEqual([
      'Should phones be banned during class?',
      'Today: longer recess?',
    ]);
    expect(here.openData.builds).toBe(5);
  });

  it('sends each document compressed as the client takes it, each decoding to the same document', async () => {
    await seedPast();
    const site = await instance();
    for (const path of PATHS) {
      const plain = await site.get(path);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('accept-encoding');
      const brotli = await site.get(path, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.headers['content-type']).toBe(plain.headers['content-type']);
      expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
      const gzip = await site.get(path, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
      // Three representations, three validators.
      expect(new Set([plain.headers.etag, brotli.headers.etag, gzip.headers.etag]).size).toBe(3);
      // Compressed once: the second answer is the same bytes.
      const brotliAgain = await site.get(path, { 'accept-encoding': 'br' });
      expect(brotliAgain.rawPayload.equals(brotli.rawPayload)).toBe(true);
    }
    expect(site.openData.builds).toBe(3);
  });
});
