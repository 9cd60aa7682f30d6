/**
 * Voter ids the server signed (issue 25): an id the server did not sign is never anyone's, a
 * browser from before signing keeps its history, and its bare id is re-issued signed once.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActivePoll, Stats } from '../../shared/api.js';
import { EMPTY_PROFILE } from '../../shared/profile.js';
import type { Db } from '../db/connection.js';
import type { PollRecord } from '../polls/poll.js';
import { insertVoteRow, newVoterId, seedPoll } from '../testing/fixtures.js';
import { createTestApp, createTestAppOn, type TestApp } from '../testing/test-app.js';
import { newYorkTime, TestClock } from '../testing/test-clock.js';
import { createTestClient, type TestClient } from '../testing/test-client.js';
import { createTestDatabase, openTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { createLegacyVoterIds, REISSUE_GRACE_MS, VOTER_COOKIE_KEY, voterCookieKey } from './voter-ids.service.js';
import { MANIFEST_PATH } from '../pages/page-styles.js';
import {
  ensureVoterId,
  readVoterId,
  VOTER_COOKIE,
  voterIdOfCookie,
  VoterIds,
  type LegacyVoterIds,
} from './voter-cookie.js';

const MINUTE = 60_000;
/** The test clock's start (test-app.ts): 10:00 in New York on 2026-11-21. */
const TEN_AM = newYorkTime('2026-11-21', '10:00').getTime();
const SIGNED = /^[A-Za-z0-9_-]{22}\.[0-9a-z]{8}\.[A-Za-z0-9_-]{22}$/;

/** The voter cookie a response set, if any. */
const voterCookieOf = (response: LightMyRequestResponse) =>
  (response.cookies as { name: string; value: string }[]).find((c) => c.name === VOTER_COOKIE)?.value;

/** When a signed cookie says its id was issued (ms). */
const issuedAtOf = (cookie: string) => parseInt(cookie.split('.')[1] ?? '', 36);

/** A browser that sends `value` as its voter cookie. */
function browserWith(app: FastifyInstance, value: string): Visitor {
  const visitor = new Visitor(app);
  visitor.cookies.set(VOTER_COOKIE, value);
  return visitor;
}

describe.each(testDatabaseKinds())('signed voter ids (%s)', (kind) => {
  let t: TestApp;
  let poll: PollRecord;

  beforeEach(async () => {
    t = await createTestApp(kind);
    poll = await seedPoll(t.db, { options: ['Yes', 'No'], votes: [2, 1] });
  });
  afterEach(() => t.close());

  const votesOf = (voterId: string) =>
    t.db.selectFrom('votes').select(['poll_id', 'option_index']).where('voter_id', '=', voterId).execute();
  const tallies = async () =>
    (
      await t.db
        .selectFrom('poll_options')
        .select('vote_count')
        .where('poll_id', '=', poll.id)
        .orderBy('position')
        .execute()
    ).map((row) => row.vote_count);
  const activePoll = async (visitor: Visitor) => (await visitor.get('/api/polls/active')).json<ActivePoll>();
  const stats = async (visitor: Visitor) => (await visitor.get('/api/stats')).json<Stats>();

  it('gives a new voter a signed cookie: the id, when the site clock says it was issued, and a MAC', async () => {
    const visitor = new Visitor(t.app);
    const response = await visitor.vote(poll.id, 0);

    expect(response.statusCode).toBe(201);
    const cookie = voterCookieOf(response) ?? '';
    expect(cookie).toMatch(SIGNED);
    expect(issuedAtOf(cookie)).toBe(TEN_AM);
    expect(response.headers['set-cookie']).toMatch(/; Max-Age=34560000; Path=\/; HttpOnly; SameSite=Lax$/);
    // The database keeps the bare id.
    expect(await votesOf(cookie.slice(0, 22))).toEqual([{ poll_id: poll.id, option_index: 0 }]);

    // Each vote renews the same cookie (a refused one too): the id keeps the time it was issued.
    t.clock.advance(60 * MINUTE);
    const renewed = await visitor.vote(poll.id, 1);
    expect(renewed.statusCode).toBe(409);
    expect(voterCookieOf(renewed)).toBe(cookie);
    expect(renewed.headers['set-cookie']).toMatch(/; Max-Age=34560000;/);
  });

  it('never counts a vote under an id the client made up: it is cast under a new, signed id', async () => {
    const invented = 'Z'.repeat(22);
    const visitor = browserWith(t.app, invented);

    const response = await visitor.vote(poll.id, 1);

    expect(response.statusCode).toBe(201);
    const cookie = voterCookieOf(response) ?? '';
    expect(cookie).toMatch(SIGNED);
    expect(voterIdOfCookie(cookie)).not.toBe(invented);
    expect(await votesOf(invented)).toEqual([]);
    expect(await votesOf(visitor.voterId ?? '')).toEqual([{ poll_id: poll.id, option_index: 1 }]);
    expect(await tallies()).toEqual([2, 2]);

    // The same made-up id again: another new voter, not "already voted" for the first one.
    const again = await browserWith(t.app, invented).vote(poll.id, 1);
    expect(again.statusCode).toBe(201);
    expect(voterIdOfCookie(voterCookieOf(again) ?? '')).not.toBe(visitor.voterId);
    expect(await votesOf(invented)).toEqual([]);
  });

  it('never keeps a vote without scripts, or a profile, under an id the client made up', async () => {
    const invented = 'Y'.repeat(22);
    const form = await browserWith(t.app, invented).request({
      method: 'POST',
      url: `/polls/${poll.id}/vote`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.config.site.publicUrl },
      payload: 'option=0',
    });
    expect(form.statusCode).toBe(303);
    expect(form.headers.location).toBe('/?outcome=counted');
    expect(voterCookieOf(form)).toMatch(SIGNED);

    const profile = await browserWith(t.app, invented).put('/api/me/profile', { role: 'classroom-teacher' });
    expect(profile.statusCode).toBe(200);
    const profileCookie = voterCookieOf(profile) ?? '';
    expect(profileCookie).toMatch(SIGNED);

    expect(await votesOf(invented)).toEqual([]);
    const answers = await t.db.selectFrom('profile_answers').select('voter_id').execute();
    expect(answers).toEqual([{ voter_id: voterIdOfCookie(profileCookie) }]);
  });

  it('reads a made-up id as no id: no vote, no stats, no profile, and no cookie set', async () => {
    const visitor = browserWith(t.app, 'X'.repeat(22));
    for (const url of ['/api/polls/active', '/api/stats', '/api/me/profile']) {
      const response = await visitor.get(url);
      expect(response.statusCode).toBe(200);
      expect(voterCookieOf(response), url).toBeUndefined();
    }
    expect(await activePoll(visitor)).toMatchObject({ userVoted: false, userVoteOption: null });
    expect(await stats(visitor)).toMatchObject({ totalVotes: 0, streak: 0 });
    expect((await visitor.get('/api/me/profile')).json()).toEqual(EMPTY_PROFILE);
    const attach = await visitor.post(`/api/polls/${poll.id}/update-vote`, { email: 'x@example.org' });
    expect(attach.statusCode).toBe(404);
  });

  it('ignores a cookie whose MAC, issue time or id was changed, or that another site signed', async () => {
    const voter = new Visitor(t.app);
    await voter.vote(poll.id, 1);
    const cookie = voter.cookies.get(VOTER_COOKIE) ?? '';
    const [id = '', issuedAt = '', mac = ''] = cookie.split('.');
    const someoneElse = newVoterId();
    const elsewhere = await createTestApp(kind);
    const otherSite = new Visitor(elsewhere.app);
    await otherSite.holdVoterId(elsewhere.db, id, TEN_AM);
    await elsewhere.close();
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
    // The last character of 16 bytes in base64url carries 2 bits: its neighbour decodes the same.
    const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sameBytes = `${mac.slice(0, 21)}${base64url[base64url.indexOf(mac[21] ?? 'A') ^ 1]}`;
    expect(Buffer.from(sameBytes, 'base64url')).toEqual(Buffer.from(mac, 'base64url'));

    const tampered = {
      'a changed MAC': `${id}.${issuedAt}.${flip(mac, 5)}`,
      'the same MAC spelt another way': `${id}.${issuedAt}.${sameBytes}`,
      'an earlier issue time': `${id}.${(TEN_AM - 30 * 86_400_000).toString(36)}.${mac}`,
      'a later issue time': `${id}.${(TEN_AM + 1).toString(36)}.${mac}`,
      'another id under this MAC': `${someoneElse}.${issuedAt}.${mac}`,
      'no MAC': `${id}.${issuedAt}`,
      'a part more': `${cookie}.x`,
      'another site’s key': otherSite.cookies.get(VOTER_COOKIE) ?? '',
    };
    // The real cookie, checked and remembered first (voter-cookie.ts): no spelling but its own rides on that.
    expect(await activePoll(voter)).toMatchObject({ userVoted: true, userVoteOption: 1 });
    for (const [change, value] of Object.entries(tampered)) {
      expect(value, change).not.toBe(cookie);
      const browser = browserWith(t.app, value);
      expect(await activePoll(browser), change).toMatchObject({ userVoted: false });
      expect((await stats(browser)).totalVotes, change).toBe(0);
    }

    // A vote with a tampered cookie is a new voter's, not "already voted" for the real one.
    const forged = await browserWith(t.app, tampered['an earlier issue time']).vote(poll.id, 0);
    expect(forged.statusCode).toBe(201);
    expect(voterIdOfCookie(voterCookieOf(forged) ?? '')).not.toBe(id);
    expect(await votesOf(id)).toEqual([{ poll_id: poll.id, option_index: 1 }]);
    expect(await votesOf(someoneElse)).toEqual([]);
    // The untouched cookie still works.
    expect(await activePoll(voter)).toMatchObject({ userVoted: true, userVoteOption: 1 });
  });

  describe('a browser from before signing (a bare id the database knows)', () => {
    const legacyId = 'OldBrowserFrom2025xyzA';
    const firstVoteAt = '2026-11-20T15:00:00.000Z';

    /** A browser that voted yesterday and today before this release, and answered the profile. */
    async function oldBrowser(db: Db = t.db): Promise<Visitor> {
      const yesterday = await seedPoll(db, { status: 'past', liveDate: '2026-11-20', options: ['A', 'B'] });
      await insertVoteRow(db, {
        pollId: yesterday.id,
        voterId: legacyId,
        votedOn: '2026-11-20',
        createdAt: firstVoteAt,
      });
      await insertVoteRow(db, {
        pollId: poll.id,
        voterId: legacyId,
        optionIndex: 1,
        votedOn: '2026-11-21',
        createdAt: '2026-11-21T14:00:00.000Z',
      });
      await db
        .insertInto('profile_answers')
        .values({
          voter_id: legacyId,
          dimension: 'role',
          group_value: 'school-leader',
          updated_at: '2026-11-21T14:30:00.000Z',
        })
        .execute();
      return browserWith(t.app, legacyId);
    }

    const reissued = () => t.db.selectFrom('reissued_voter_ids').selectAll().execute();

    it('keeps its history for reads, which set no cookie', async () => {
      const browser = await oldBrowser();
      for (const url of ['/api/polls/active', '/api/stats', '/api/me/profile']) {
        expect(voterCookieOf(await browser.get(url)), url).toBeUndefined();
      }
      expect(await activePoll(browser)).toMatchObject({ userVoted: true, userVoteOption: 1 });
      expect(await stats(browser)).toMatchObject({ totalVotes: 2, streak: 2 });
      expect((await browser.get('/api/me/profile')).json()).toMatchObject({ role: 'school-leader' });
      expect(await reissued()).toEqual([]);
    });

    it('gets its id back signed on its next write, dated by its first vote, and keeps its history', async () => {
      const browser = await oldBrowser();
      t.clock.advance(5 * MINUTE);

      const saved = await browser.put('/api/me/profile', { experience: '11-20' });

      expect(saved.statusCode).toBe(200);
      const cookie = voterCookieOf(saved) ?? '';
      expect(cookie).toMatch(SIGNED);
      expect(voterIdOfCookie(cookie)).toBe(legacyId);
      expect(issuedAtOf(cookie)).toBe(Date.parse(firstVoteAt));
      expect(browser.cookies.get(VOTER_COOKIE)).toBe(cookie);
      // The bare id is kept by its hash, once.
      const rows = await reissued();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.id_hash).toBe(createHash('sha256').update(legacyId).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(legacyId);

      // Signed now, it is the same voter: its votes, streak, choice and profile.
      expect(await stats(browser)).toMatchObject({ totalVotes: 2, streak: 2 });
      expect(await activePoll(browser)).toMatchObject({ userVoted: true, userVoteOption: 1 });
      expect((await browser.get('/api/me/profile')).json()).toMatchObject({
        role: 'school-leader',
        experience: '11-20',
      });
      const again = await browser.vote(poll.id, 0);
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('already-voted');
      expect(voterCookieOf(again)).toBe(cookie);
      expect(await reissued()).toHaveLength(1);
    });

    it('is re-issued the same id by every write of a burst, and recorded once', async () => {
      const browser = await oldBrowser();
      const answers = await Promise.all(Array.from({ length: 6 }, () => browser.vote(poll.id, 0)));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(409));
      expect(new Set(answers.map((a) => voterIdOfCookie(voterCookieOf(a) ?? '')))).toEqual(new Set([legacyId]));
      expect(await reissued()).toHaveLength(1);
    });

    it(`takes the bare id only once: ${REISSUE_GRACE_MS / MINUTE} minutes more for requests under way, then it is a copy and no id`, async () => {
      const browser = await oldBrowser();
      expect((await browser.vote(poll.id, 0)).statusCode).toBe(409); // re-issued signed
      const copy = browserWith(t.app, legacyId);

      // A request sent with the bare cookie before the signed one arrived: still this voter.
      t.clock.advance(REISSUE_GRACE_MS - MINUTE);
      expect(await activePoll(copy)).toMatchObject({ userVoted: true, userVoteOption: 1 });
      const retried = await browserWith(t.app, legacyId).vote(poll.id, 0);
      expect(retried.statusCode).toBe(409);
      expect(voterIdOfCookie(voterCookieOf(retried) ?? '')).toBe(legacyId);

      // Later, the bare id is nobody: reads see a stranger, a vote is a new voter's.
      t.clock.advance(2 * MINUTE);
      expect(await activePoll(copy)).toMatchObject({ userVoted: false });
      expect((await stats(copy)).totalVotes).toBe(0);
      expect((await copy.get('/api/me/profile')).json()).toEqual(EMPTY_PROFILE);
      const before = await tallies();
      const late = await copy.vote(poll.id, 0);
      expect(late.statusCode).toBe(201);
      expect(voterIdOfCookie(voterCookieOf(late) ?? '')).not.toBe(legacyId);
      expect(await tallies()).toEqual([(before[0] ?? 0) + 1, before[1]]);
      expect(await votesOf(legacyId)).toHaveLength(2);
      const profileCopy = await browserWith(t.app, legacyId).put('/api/me/profile', { role: 'support-staff' });
      expect(voterIdOfCookie(voterCookieOf(profileCopy) ?? '')).not.toBe(legacyId);

      // The browser that holds the signed cookie is untouched.
      expect(await stats(browser)).toMatchObject({ totalVotes: 2 });
      expect((await browser.get('/api/me/profile')).json()).toMatchObject({ role: 'school-leader' });
    });

    it('is no id once the database holds nothing of it', async () => {
      const unknown = browserWith(t.app, newVoterId());
      const vote = await unknown.vote(poll.id, 0);
      expect(vote.statusCode).toBe(201);
      expect(voterIdOfCookie(voterCookieOf(vote) ?? '')).not.toBe(unknown.cookies.get(VOTER_COOKIE));
      expect(await reissued()).toEqual([]);
    });
  });

  it('signs with a key made once in the settings, taken by every instance, and never logged', async () => {
    const database = await createTestDatabase(kind);
    const lines: string[] = [];
    const logStream = { write: (line: string) => void lines.push(line) };
    const first = await createTestAppOn(database, { keepDatabase: true, logStream, env: { LOG_LEVEL: 'trace' } });
    const second = await createTestAppOn(database, { logStream, env: { LOG_LEVEL: 'trace' } });
    try {
      const shared = await seedPoll(first.db, { options: ['A', 'B'] });
      const settings = await first.db.selectFrom('settings').selectAll().execute();
      const key = settings.find((row) => row.name === VOTER_COOKIE_KEY)?.value ?? '';
      expect(Buffer.from(key, 'base64')).toHaveLength(32);
      expect(settings.filter((row) => row.name.startsWith('address_key:')).map((row) => row.value)).not.toContain(key);

      // Issued by one instance, the other takes it.
      const visitor = new Visitor(first.app);
      expect((await visitor.vote(shared.id, 1)).statusCode).toBe(201);
      const onSecond = browserWith(second.app, visitor.cookies.get(VOTER_COOKIE) ?? '');
      expect((await onSecond.get('/api/polls/active')).json<ActivePoll>()).toMatchObject({ userVoteOption: 1 });
      expect((await onSecond.vote(shared.id, 0)).statusCode).toBe(409);
      await browserWith(second.app, 'Q'.repeat(22)).vote(shared.id, 0);

      const keyBytes = Buffer.from(key, 'base64');
      const log = lines.join('');
      expect(lines.length).toBeGreaterThanOrEqual(4); // every request is logged at trace
      for (const spelling of [key, keyBytes.toString('base64url'), keyBytes.toString('hex')]) {
        expect(log).not.toContain(spelling);
      }
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe.each(testDatabaseKinds())('what the vote path is told of its voter (%s)', (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  let clock: TestClock;
  let legacyLookups: string[];
  let voterIds: VoterIds;
  let app: FastifyInstance;

  beforeEach(async () => {
    ({ db, close } = await openTestDatabase(kind));
    clock = new TestClock(new Date(TEN_AM));
    legacyLookups = [];
    // The real lookups, counted.
    const legacy = createLegacyVoterIds(db, clock);
    const counted: LegacyVoterIds = {
      find: (id) => (legacyLookups.push(`find ${id}`), legacy.find(id)),
      reissue: (id) => (legacyLookups.push(`reissue ${id}`), legacy.reissue(id)),
    };
    voterIds = new VoterIds({ key: await voterCookieKey(db), clock, secureCookies: true, legacy: counted });
    app = Fastify();
    app.get('/read', async (request) => ({ voter: await readVoterId(request, voterIds) }));
    app.post('/write', async (request, reply) => ({ voter: await ensureVoterId(request, reply, voterIds) }));
  });
  afterEach(async () => {
    await app.close();
    await close();
  });

  const send = (method: 'GET' | 'POST', cookie?: string) =>
    app.inject({
      method,
      url: method === 'GET' ? '/read' : '/write',
      ...(cookie === undefined ? {} : { headers: { cookie: `${VOTER_COOKIE}=${cookie}` } }),
    });

  it('tells a new voter is fresh, issued now by the clock; then the same voter is not, and keeps its issue time', async () => {
    const first = await send('POST');
    const { voter } = first.json<{ voter: { id: string; issuedAt: number; fresh: boolean } }>();
    expect(voter).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), issuedAt: TEN_AM, fresh: true });
    expect(first.headers['set-cookie']).toMatch(/; Max-Age=34560000; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    const cookie = voterCookieOf(first) ?? '';

    clock.advance(3 * 86_400_000);
    const later = await send('POST', cookie);
    expect(later.json()).toEqual({ voter: { id: voter.id, issuedAt: TEN_AM, fresh: false } });
    expect(voterCookieOf(later)).toBe(cookie);
    expect((await send('GET', cookie)).json()).toEqual({ voter: { id: voter.id, issuedAt: TEN_AM, fresh: false } });
    // A signed cookie is checked by its MAC alone: the database is never asked.
    expect(legacyLookups).toEqual([]);
  });

  it('asks the database only about a bare id, and tells a re-issued one is not fresh', async () => {
    const unknown = 'U'.repeat(22);
    expect((await send('GET', unknown)).json()).toEqual({ voter: null });
    expect((await send('GET', 'not-an-id')).json()).toEqual({ voter: null });
    expect(legacyLookups).toEqual([`find ${unknown}`]);

    const old = newVoterId();
    const poll = await seedPoll(db);
    await insertVoteRow(db, { pollId: poll.id, voterId: old, createdAt: '2026-11-01T12:00:00.000Z' });
    const written = await send('POST', old);
    expect(written.json()).toEqual({
      voter: { id: old, issuedAt: Date.parse('2026-11-01T12:00:00.000Z'), fresh: false },
    });
    expect(voterIdOfCookie(voterCookieOf(written) ?? '')).toBe(old);
    const invented = await send('POST', unknown);
    expect(invented.json<{ voter: { id: string; fresh: boolean } }>().voter).toMatchObject({ fresh: true });
  });

  it('keeps its key out of anything that prints it', async () => {
    const key = (await voterCookieKey(db)).toString('base64');
    const printed = [inspect(voterIds, { depth: 5, showHidden: true }), JSON.stringify(voterIds)];
    for (const text of printed) expect(text).not.toContain(key);
  });
});

describe('server-drawn pages', () => {
  const RENDERER = `
export const renderer = {
  lazyParts: [],
  async render({ data }) {
    const poll = await data.activePoll();
    return { html: '<p>voted: ' + String(poll && poll.userVoted) + '</p>', state: '{}', parts: [] };
  },
};
`;
  let client: TestClient;
  let ssrEntry: string;
  let t: TestApp | undefined;
  beforeAll(() => {
    client = createTestClient();
    fs.mkdirSync(path.join(client.dir, path.dirname(MANIFEST_PATH)), { recursive: true });
    fs.writeFileSync(path.join(client.dir, MANIFEST_PATH), '{}');
    ssrEntry = path.join(client.dir, 'entry-server.mjs');
    fs.writeFileSync(ssrEntry, RENDERER);
  });
  afterAll(() => client.remove());
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('are drawn for the voter of a signed cookie, and for nobody from a made-up one', async () => {
    t = await createTestApp('sqlite', { clientDir: client.dir, ssrEntry });
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'] });
    const voter = new Visitor(t.app);
    await voter.vote(poll.id, 0);
    const page = async (visitor: Visitor) => {
      const response = await visitor.get('/');
      expect(voterCookieOf(response)).toBeUndefined();
      return response.body;
    };

    expect(await page(voter)).toContain('<p>voted: true</p>');
    expect(await page(new Visitor(t.app))).toContain('<p>voted: false</p>');
    expect(await page(browserWith(t.app, 'Z'.repeat(22)))).toContain('<p>voted: false</p>');
    // The id of the voter, not signed by the server: nobody's.
    expect(await page(browserWith(t.app, `${voter.voterId ?? ''}.${'0'.repeat(8)}.${'A'.repeat(22)}`))).toContain(
      '<p>voted: false</p>',
    );
  });
});
