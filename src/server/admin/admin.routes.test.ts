import type { InjectOptions, RouteOptions } from 'fastify';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  ActivePoll,
  AdminPoll,
  AdminSuggestion,
  SavedPoll,
  StaffInvite,
  StaffSession,
  SuggestionsPage,
  VoteRecord,
} from '../../shared/api.js';
import { can, type StaffAction } from '../../shared/staff-permissions.js';
import { NOT_ALLOWED } from '../staff/admin-guard.js';
import { signedInStaff } from '../testing/staff.js';
import { ActivePollCache } from '../polls/active-poll-cache.js';
import { createScheduleService } from '../polls/schedule.service.js';
import { insertVoteRow, seedPoll } from '../testing/fixtures.js';
import { insertReviewVotes } from '../testing/review-fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestApp, createTestAppOn, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { newYorkTime, TestClock, testSite } from '../testing/test-clock.js';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

const draft = (overrides: Record<string, unknown> = {}) => ({
  question: 'Should schools start later for teenagers?',
  description: 'Sleep researchers recommend 8:30 a.m. or later.',
  options: ['Yes', 'No', 'Not sure'],
  liveDate: '2026-11-25',
  ...overrides,
});

/**
 * Calls under /api/admin that answer without a session by design: the ways in (password, the
 * first owner, a one-time link, a passkey, an invite), signing out, and asking who is signed in.
 */
const SIGN_IN_CALLS = [
  'POST /api/admin/login',
  'POST /api/admin/logout',
  'GET /api/admin/session',
  'POST /api/admin/setup',
  'POST /api/admin/sign-in-link',
  'POST /api/admin/passkeys/sign-in/options',
  'POST /api/admin/passkeys/sign-in',
  'POST /api/admin/invites/lookup',
  'POST /api/admin/invites/passkey-options',
  'POST /api/admin/invites/accept',
];

/** Calls a real authenticator must answer: the sweep's made-up body gets their refusal. */
const NEEDS_AN_AUTHENTICATOR: Record<string, number> = {
  'POST /api/admin/passkeys': 400,
  'DELETE /api/admin/passkeys/:id': 404,
};

/** Staff calls outside /api/admin. GET /api/poll-suggestions holds e-mails. */
const STAFF_CALLS_ELSEWHERE = ['GET /api/poll-suggestions'];

/** A route's method and path, HEAD read as the GET it answers for. */
const callName = (method: string, url: string) => `${method === 'HEAD' ? 'GET' : method} ${url}`;

interface StaffCall {
  name: string;
  method: string;
  url: string;
  /** What the route does, in the permission table's words (its `config.permission`). */
  permission: StaffAction | undefined;
}

/** Every call of the app's routes that needs a staff session: the sweeps below cover a new one by themselves. */
function staffCalls(routes: RouteOptions[]): StaffCall[] {
  return routes.flatMap((route) =>
    [route.method]
      .flat()
      .map((method) => ({
        name: callName(method, route.url),
        method,
        url: route.url,
        permission: route.config?.permission,
      }))
      .filter(
        ({ name, url }) =>
          (url.startsWith('/api/admin/') && !SIGN_IN_CALLS.includes(name)) || STAFF_CALLS_ELSEWHERE.includes(name),
      ),
  );
}

describe.each(testDatabaseKinds())('the admin API (%s)', (kind) => {
  let t: TestApp;
  let staff: Visitor;
  let routes: RouteOptions[];

  beforeEach(async () => {
    routes = [];
    t = await createTestApp(kind, { onRoute: (route) => void routes.push(route) });
    staff = new Visitor(t.app, { origin: t.config.site.publicUrl });
    expect((await staff.post('/api/admin/login', TEST_SIGN_IN)).statusCode).toBe(200);
  });
  afterEach(() => t.close());

  async function seedSuggestion(question = 'Is cursive worth teaching?') {
    const response = await new Visitor(t.app).post('/api/poll-suggestions', {
      question,
      options: ['Yes', 'No'],
      suggestedBy: 'Ms. Rivera',
      email: 'rivera@example.org',
    });
    return response.json<{ id: number }>().id;
  }

  /** A network's vote on the poll, and a discount of it by staff (which a sweep's restore can undo). */
  const SWEEP_BUCKET = '00000000000000aa';
  const SWEEP_RANGE = { bucket: SWEEP_BUCKET, from: '2026-11-21T14:00:00.000Z', to: '2026-11-21T14:59:59.999Z' };
  async function seedDiscount(pollId: number) {
    await insertReviewVotes(t.db, [
      { pollId, optionIndex: 0, createdAt: '2026-11-21T14:30:00.000Z', bucket: SWEEP_BUCKET },
    ]);
    const response = await staff.post(`/api/admin/polls/${pollId}/discounts`, { ...SWEEP_RANGE, reason: 'Sweep' });
    expect(response.statusCode).toBe(201);
    return response.json<{ action: { id: number } }>().action.id;
  }

  describe('protection', () => {
    /**
     * Every staff call with its path's ids filled in with real ones (a poll's and a suggestion's),
     * and a body each would take: what a signed-in member of staff would send.
     */
    type Ids = { polls: number; 'poll-suggestions': number; discounts: number } & Partial<
      Record<'staff' | 'invites' | 'sessions' | 'passkeys' | 'series' | 'topics', number | string>
    >;
    function staffRequests(given: Ids) {
      const ids: Ids = {
        staff: 1,
        invites: 1,
        sessions: 999,
        passkeys: 'no-such-passkey',
        series: 999,
        topics: 1,
        ...given,
      };
      const body = {
        ...draft(),
        status: 'approved',
        replacing: null,
        ...SWEEP_RANGE,
        reason: 'Sweep',
        everyone: true,
        email: 'new.teacher@school.example',
        role: 'editor',
        name: 'Sweep',
        slug: 'sweep',
        response: {},
        password: 'a long enough new password',
        body: 'What we learned, in a sentence.',
        sendAt: '20:30',
      };
      return staffCalls(routes).map(({ name: route, method, url, permission }) => {
        const path = url.replace(/\/([\w-]+)\/:(\w+)/g, (_, collection: string, param: string) => {
          const id = collection in ids ? ids[collection as keyof typeof ids] : undefined;
          if (id === undefined) throw new Error(`${route}: no id for :${param} after /${collection}/; add one here`);
          return `/${collection}/${id}`;
        });
        const payload = ['POST', 'PUT', 'PATCH'].includes(method) ? body : undefined;
        const options: InjectOptions = {
          // Fastify's route methods include WebDAV's, which the injector does not name.
          method: method as InjectOptions['method'],
          url: path,
          ...(payload ? { payload } : {}),
        };
        return { name: `${method} ${path}`, route, method, options, permission };
      });
    }

    /** A second session of the owner, for the sweep to end without ending its own. */
    async function spareSession() {
      await new Visitor(t.app, { origin: t.config.site.publicUrl }).post('/api/admin/login', TEST_SIGN_IN);
      const sessions = (await staff.get('/api/admin/sessions')).json<StaffSession[]>();
      const spare = sessions.find((session) => !session.current);
      if (!spare) throw new Error('no spare session');
      return spare.id;
    }
    async function seedInvite() {
      const response = await staff.post('/api/admin/invites', { email: 'invited@school.example', role: 'moderator' });
      expect(response.statusCode).toBe(201);
      return response.json<StaffInvite>().id;
    }

    /** Every staff call, on a suggestion, a discount of the poll, an invite and a spare session made for it. */
    async function seededRequests(pollId: number) {
      const suggestionId = await seedSuggestion();
      const discountId = await seedDiscount(pollId);
      // The poll as the first run of a series staff may rename.
      await t.db
        .insertInto('poll_series')
        .values({ id: pollId, name: 'Series', slug: 'series', updated_at: t.clock.now().toISOString() })
        .execute();
      return staffRequests({
        polls: pollId,
        series: pollId,
        'poll-suggestions': suggestionId,
        discounts: discountId,
        invites: await seedInvite(),
        sessions: await spareSession(),
      });
    }

    it('sweeps every staff call the app registers: all under /api/admin but signing in, and the suggestion list', () => {
      const names = new Set(staffCalls(routes).map((call) => call.name));
      expect([...names]).toEqual(
        expect.arrayContaining([
          'GET /api/admin/staff',
          'PUT /api/admin/staff/:id',
          'POST /api/admin/invites',
          'GET /api/admin/sessions',
          'DELETE /api/admin/sessions/:id',
          'GET /api/admin/audit',
          'GET /api/admin/polls',
          'POST /api/admin/polls',
          'PUT /api/admin/polls/:id',
          'DELETE /api/admin/polls/:id',
          'PUT /api/admin/polls/:id/activate',
          'POST /api/admin/update-poll-status',
          'GET /api/admin/polls/:id/votes',
          'GET /api/admin/polls/:id/votes/summary',
          'GET /api/admin/polls/:id/votes.csv',
          'GET /api/admin/mail-stats',
          'PUT /api/admin/poll-suggestions/:id/status',
          'DELETE /api/admin/poll-suggestions/:id',
          'GET /api/poll-suggestions',
          'GET /api/admin/polls/:id/integrity',
          'POST /api/admin/polls/:id/discounts',
          'DELETE /api/admin/polls/:id/discounts/:discountId',
          'POST /api/admin/polls/:id/held/release',
          'PUT /api/admin/polls/:id/challenge',
        ]),
      );
      // An exception names a route that exists: a renamed one cannot slip out of the sweep.
      const registered = new Set(routes.flatMap((r) => [r.method].flat().map((m) => callName(m, r.url))));
      for (const name of [...SIGN_IN_CALLS, ...STAFF_CALLS_ELSEWHERE]) expect(registered, name).toContain(name);
      expect(names).not.toContain('POST /api/poll-suggestions');
    });

    it('answers every staff call with 401 without a session, even with a bad body, and changes nothing', async () => {
      const poll = await seedPoll(t.db);
      const requests = await seededRequests(poll.id);
      const before = await snapshotDatabase(t.db);
      const stranger = new Visitor(t.app);
      for (const { name, method, options } of requests) {
        const response = await stranger.request(options);
        expect(response.statusCode, name).toBe(401);
        if (method !== 'HEAD') {
          expect(response.json(), name).toEqual({
            message: 'Please sign in to the admin panel.',
            code: 'unauthorized',
          });
        }
      }
      const badBody = await stranger.post('/api/admin/polls', { question: 42 });
      expect(badBody.statusCode).toBe(401);
      expect(await snapshotDatabase(t.db)).toEqual(before);

      // The same requests reach their poll and suggestion with a session (DELETE last, so each finds them).
      // What belongs to a poll (a discount) goes before the poll itself; a new password, which
      // ends the spare session, after all.
      const rank = ({ method, route }: { method: string; route: string }) =>
        route === 'PUT /api/admin/password' ? 2 : Number(method === 'DELETE');
      const deletesLast = [...requests].sort(
        (a, b) => rank(a) - rank(b) || (a.method === 'DELETE' ? b.name.length - a.name.length : 0),
      );
      for (const { name, route, options } of deletesLast) {
        const expected = route in NEEDS_AN_AUTHENTICATOR ? [NEEDS_AN_AUTHENTICATOR[route]] : [200, 201, 409];
        expect(expected, name).toContain((await staff.request(options)).statusCode);
      }
    });

    it('refuses every state-changing staff call from another site with 403, even with a session', async () => {
      const poll = await seedPoll(t.db);
      const suggestionId = await seedSuggestion();
      const discountId = await seedDiscount(poll.id);
      const requests = staffRequests({
        polls: poll.id,
        'poll-suggestions': suggestionId,
        discounts: discountId,
      }).filter(({ method }) => !['GET', 'HEAD', 'OPTIONS'].includes(method));
      expect(requests.length).toBeGreaterThanOrEqual(7);
      const before = await snapshotDatabase(t.db);
      const forged = new Visitor(t.app, { origin: 'https://evil.example' });
      forged.cookies.set('admin_session', staff.cookies.get('admin_session') ?? '');
      const crossSite = new Visitor(t.app, { 'sec-fetch-site': 'cross-site' });
      crossSite.cookies.set('admin_session', staff.cookies.get('admin_session') ?? '');
      for (const { name, options } of requests) {
        for (const visitor of [forged, crossSite]) {
          const response = await visitor.request(options);
          expect(response.statusCode, name).toBe(403);
          expect(response.json().message).toBe('This request came from another site and was refused.');
        }
      }
      expect(await snapshotDatabase(t.db)).toEqual(before);
    });

    it.each(['editor', 'moderator'] as const)(
      'answers 403 to a %s for every staff call its role may not make (from can()), and changes nothing',
      async (role) => {
        const poll = await seedPoll(t.db);
        const requests = await seededRequests(poll.id);
        const person = await signedInStaff(t, role);
        const refused = requests.filter(({ permission }) => !permission || !can(role, permission));
        const allowed = requests.filter(({ permission }) => permission && can(role, permission));
        expect(refused.length).toBeGreaterThan(5);
        const before = await snapshotDatabase(t.db);
        for (const { name, method, options } of refused) {
          const response = await person.visitor.request(options);
          expect(response.statusCode, name).toBe(403);
          if (method !== 'HEAD') expect(response.json(), name).toEqual({ message: NOT_ALLOWED, code: 'forbidden' });
        }
        expect(await snapshotDatabase(t.db)).toEqual(before);
        // And what the role may do is not refused for its role.
        for (const { name, options } of allowed.filter((call) => call.method === 'GET')) {
          expect((await person.visitor.request(options)).statusCode, name).not.toBe(403);
        }
      },
    );

    /** Any e-mail address in an answer's body. */
    const ADDRESS = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
    /** What a GET may ask beyond its path: every query that reads more, or e-mails. */
    const QUERIES = ['', '?withEmail=true', '?limit=10', '?withEmail=true&limit=10', '?all=true', '?status=pending'];

    it.each(['editor', 'moderator'] as const)(
      'sends a %s no e-mail address but its own in the answer to any staff call, whatever it asks',
      async (role) => {
        const poll = await seedPoll(t.db, { options: ['Yes', 'No'] });
        // Addresses in every place the site keeps one: votes (counted and held), suggestions,
        // subscribers, invites and the staff, and the audit log that names the invite.
        await insertVoteRow(t.db, { pollId: poll.id, optionIndex: 0, voterEmail: 'counted.voter@example.org' });
        await t.db
          .insertInto('votes')
          .values({
            poll_id: poll.id,
            voter_id: 'held-voter',
            option_index: 1,
            voter_email: 'held.voter@example.org',
            voted_on: '2026-11-21',
            created_at: '2026-11-21T15:10:00.000Z',
            status: 'held',
          })
          .execute();
        const subscribed = await new Visitor(t.app).post('/api/subscribe', { email: 'subscriber@example.org' });
        expect(subscribed.statusCode).toBe(200);
        const requests = (await seededRequests(poll.id)).flatMap((request) =>
          request.method === 'GET'
            ? QUERIES.map((query) => ({
                ...request,
                name: `${request.name}${query}`,
                options: { ...request.options, url: `${request.name.slice('GET '.length)}${query}` },
              }))
            : [request],
        );
        const deletesLast = [...requests].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
        const person = await signedInStaff(t, role);
        const calls = [...deletesLast, { name: 'GET /api/admin/session', options: { url: '/api/admin/session' } }];
        let answered = 0;
        for (const { name, options } of calls) {
          const response = await person.visitor.request({ method: 'GET', ...options });
          if (response.statusCode < 300) answered += 1;
          const addresses = (response.body.match(ADDRESS) ?? []).filter((address) => address !== person.email);
          expect(addresses, name).toEqual([]);
        }
        // The sweep reached what the role may read, not only refusals.
        expect(answered).toBeGreaterThan(role === 'editor' ? 20 : 8);
      },
    );

    it('declares a permission on every staff call, so none is open to every role by mistake', () => {
      const missing = staffCalls(routes).filter((call) => call.permission === undefined);
      expect(missing.map((call) => call.name)).toEqual([]);
    });

    it('accepts calls from its own address, and from no browser page at all', async () => {
      const noOrigin = new Visitor(t.app);
      noOrigin.cookies.set('admin_session', staff.cookies.get('admin_session') ?? '');
      expect((await noOrigin.post('/api/admin/update-poll-status')).statusCode).toBe(200);
      expect((await staff.post('/api/admin/update-poll-status')).statusCode).toBe(200);
    });
  });

  describe('polls', () => {
    it('schedules a poll for a later day, out of public sight', async () => {
      const response = await staff.post('/api/admin/polls', draft());
      expect(response.statusCode).toBe(201);
      const saved = response.json<SavedPoll>();
      expect(saved.message).toBe('Poll scheduled successfully!');
      expect(saved.poll).toMatchObject({
        status: 'scheduled',
        liveDate: '2026-11-25',
        pollNumber: 1,
        totalVotes: 0,
        isActive: false,
      });
      expect(saved.poll.options).toEqual(['Yes', 'No', 'Not sure']);

      expect((await new Visitor(t.app).get('/api/polls')).json()).toEqual([]);
      expect((await new Visitor(t.app).get('/api/polls/number/1')).statusCode).toBe(404);
      expect((await new Visitor(t.app).get('/api/polls/active')).json()).toBeNull();
      const all = (await staff.get('/api/admin/polls')).json<AdminPoll[]>();
      expect(all.map((p) => [p.pollNumber, p.status])).toEqual([[1, 'scheduled']]);
    });

    it('puts a poll dated today live at once, retiring the current one', async () => {
      const current = await seedPoll(t.db, { question: 'Current?', votes: [1, 0, 0] });
      const response = await staff.post('/api/admin/polls', draft({ liveDate: '2026-11-21' }));
      expect(response.json<SavedPoll>().message).toBe('Poll created and is now live!');

      const active = (await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>();
      expect(active.question).toBe('Should schools start later for teenagers?');
      const past = (await new Visitor(t.app).get('/api/polls')).json<AdminPoll[]>();
      expect(past.map((p) => p.id)).toEqual([current.id]);
    });

    it('refuses what would break the schedule, with clear messages, changing nothing', async () => {
      await staff.post('/api/admin/polls', draft());
      const before = await snapshotDatabase(t.db);
      const cases: [Record<string, unknown>, number, string][] = [
        [draft({ liveDate: '2026-11-20' }), 400, 'The go-live date cannot be before today.'],
        [draft({ liveDate: '2026-11-25' }), 409, 'Another poll is already scheduled for that day.'],
        [draft({ question: '  ' }), 400, 'Please fill in the question.'],
        [draft({ options: ['Only one', ' '] }), 400, 'Please provide at least 2 poll options.'],
        [draft({ options: ['1', '2', '3', '4', '5', '6', '7'] }), 400, 'A poll can have at most 6 options.'],
        [draft({ options: ['Yes', 'YES '] }), 400, 'The option "YES" is listed twice.'],
        [draft({ liveDate: '2026-02-30' }), 400, 'The go-live date must be a real date written as YYYY-MM-DD.'],
        [draft({ liveDate: '11/30/2026' }), 400, 'The go-live date must be a real date written as YYYY-MM-DD.'],
        [draft({ description: 'd'.repeat(501) }), 400, 'The description can be at most 500 characters.'],
        [draft({ liveDate: undefined }), 400, 'Please choose a go-live date.'],
      ];
      for (const [payload, status, message] of cases) {
        const response = await staff.post('/api/admin/polls', payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(status);
        expect(response.json().message).toBe(message);
      }
      expect(await snapshotDatabase(t.db)).toEqual(before);
    });

    it('edits a poll; options stay fixed once anyone has voted, and a live poll keeps its date', async () => {
      const live = await seedPoll(t.db, { options: ['A', 'B'], votes: [1, 0] });
      const edit = await staff.request({
        method: 'PUT',
        url: `/api/admin/polls/${live.id}`,
        payload: draft({ question: 'Fixed a typo?', options: ['A', 'B'], liveDate: '2026-11-21' }),
      });
      expect(edit.statusCode).toBe(200);
      expect(edit.json<SavedPoll>()).toMatchObject({
        message: 'Poll updated successfully!',
        poll: { question: 'Fixed a typo?' },
      });
      expect((await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>().question).toBe('Fixed a typo?');

      const options = await staff.request({
        method: 'PUT',
        url: `/api/admin/polls/${live.id}`,
        payload: draft({ options: ['A', 'C'], liveDate: '2026-11-21' }),
      });
      expect(options.statusCode).toBe(409);
      expect(options.json().message).toBe('This poll already has votes, so its options cannot be changed.');
      const moved = await staff.request({
        method: 'PUT',
        url: `/api/admin/polls/${live.id}`,
        payload: draft({ options: ['A', 'B'] }),
      });
      expect(moved.statusCode).toBe(409);

      const scheduled = (await staff.post('/api/admin/polls', draft())).json<SavedPoll>().poll;
      const rewritten = await staff.request({
        method: 'PUT',
        url: `/api/admin/polls/${scheduled.id}`,
        payload: draft({ options: ['Later', 'Sooner'], liveDate: '2026-11-26' }),
      });
      expect(rewritten.json<SavedPoll>().poll).toMatchObject({
        options: ['Later', 'Sooner'],
        liveDate: '2026-11-26',
        status: 'scheduled',
      });

      const missing = await staff.request({ method: 'PUT', url: '/api/admin/polls/999', payload: draft() });
      expect(missing.statusCode).toBe(404);
    });

    it('puts a scheduled poll live when its date is moved to today', async () => {
      const scheduled = (await staff.post('/api/admin/polls', draft())).json<SavedPoll>().poll;
      const response = await staff.request({
        method: 'PUT',
        url: `/api/admin/polls/${scheduled.id}`,
        payload: draft({ liveDate: '2026-11-21' }),
      });
      expect(response.json<SavedPoll>()).toMatchObject({
        message: 'Poll updated successfully! It is now live.',
        poll: { status: 'active' },
      });
    });

    it('deletes a poll with its votes and tallies in one go', async () => {
      const poll = await seedPoll(t.db, { votes: [3, 2, 1] });
      const kept = await seedPoll(t.db, { status: 'past', liveDate: '2026-11-20', votes: [1, 1] });
      const response = await staff.request({ method: 'DELETE', url: `/api/admin/polls/${poll.id}` });
      expect(response.json()).toEqual({ message: 'Poll deleted successfully' });
      const votes = await t.db.selectFrom('votes').select('poll_id').distinct().execute();
      const options = await t.db.selectFrom('poll_options').select('poll_id').distinct().execute();
      expect(votes.map((v) => v.poll_id)).toEqual([kept.id]);
      expect(options.map((o) => o.poll_id)).toEqual([kept.id]);
      expect((await new Visitor(t.app).get('/api/polls/active')).json()).toBeNull();
      expect((await staff.request({ method: 'DELETE', url: `/api/admin/polls/${poll.id}` })).statusCode).toBe(404);
    });

    it('makes a poll active now, whatever its date, retiring the current one', async () => {
      const current = await seedPoll(t.db, { question: 'Current?' });
      const scheduled = (await staff.post('/api/admin/polls', draft())).json<SavedPoll>().poll;
      const response = await staff.request({ method: 'PUT', url: `/api/admin/polls/${scheduled.id}/activate` });
      expect(response.json()).toEqual({ message: 'Poll is now active!' });
      const active = (await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>();
      expect(active).toMatchObject({ id: scheduled.id, liveDate: '2026-11-21' });
      const all = (await staff.get('/api/admin/polls')).json<AdminPoll[]>();
      expect(all.find((p) => p.id === current.id)?.status).toBe('past');
      expect((await staff.request({ method: 'PUT', url: '/api/admin/polls/999/activate' })).statusCode).toBe(404);
    });

    it('takes "Make Active" without `replacing`, as the README says: an empty object, null or no body at all', async () => {
      const current = await seedPoll(t.db, { question: 'Current?' });
      const bodies = [{ payload: {} }, { payload: 'null', headers: { 'content-type': 'application/json' } }, {}];
      for (const [i, body] of bodies.entries()) {
        const poll = await seedPoll(t.db, { status: 'scheduled', liveDate: `2026-11-2${i + 3}` });
        const response = await staff.request({ method: 'PUT', url: `/api/admin/polls/${poll.id}/activate`, ...body });
        expect(response.json(), JSON.stringify(body)).toEqual({ message: 'Poll is now active!' });
        expect((await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>().id).toBe(poll.id);
      }
      const all = (await staff.get('/api/admin/polls')).json<AdminPoll[]>();
      expect(all.find((p) => p.id === current.id)?.status).toBe('past');
    });

    it('refuses "Make Active" when the poll staff confirmed retiring is no longer the active one, changing nothing', async () => {
      const current = await seedPoll(t.db, { question: 'Current?' });
      const next = await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-23' });
      const later = await seedPoll(t.db, { status: 'scheduled', liveDate: '2026-11-24' });
      // Seen as it is: it goes through.
      const fine = await staff.put(`/api/admin/polls/${next.id}/activate`, { replacing: current.id });
      expect(fine.json()).toEqual({ message: 'Poll is now active!' });
      // Confirmed against the list as it was before: refused, and today's poll stays.
      const stale = await staff.put(`/api/admin/polls/${later.id}/activate`, { replacing: current.id });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().message).toBe(
        'Another poll was just made active, so nothing changed. Check the list, then try again.',
      );
      expect((await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>().id).toBe(next.id);
      // None active is said with null.
      await staff.request({ method: 'DELETE', url: `/api/admin/polls/${next.id}` });
      expect((await staff.put(`/api/admin/polls/${later.id}/activate`, { replacing: null })).statusCode).toBe(200);
      for (const replacing of ['1', 0, -1, 1.5, {}]) {
        const bad = await staff.put(`/api/admin/polls/${current.id}/activate`, { replacing });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().message).toBe('replacing must be the id of the poll that is active now, or null.');
      }
      expect((await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>().id).toBe(later.id);
    });

    it('runs a past poll again without moving it: it keeps its own date in the archive and on its page', async () => {
      const rerun = await seedPoll(t.db, {
        question: 'Ran on the 14th?',
        status: 'past',
        liveDate: '2026-11-14',
        votes: [2, 1, 0],
      });
      await seedPoll(t.db, { question: 'Current?', liveDate: '2026-11-21' });
      const next = (await staff.post('/api/admin/polls', draft({ liveDate: '2026-11-22' }))).json<SavedPoll>().poll;

      expect((await staff.request({ method: 'PUT', url: `/api/admin/polls/${rerun.id}/activate` })).statusCode).toBe(
        200,
      );
      expect((await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>()).toMatchObject({
        id: rerun.id,
        liveDate: '2026-11-14',
        votingOpen: true,
      });
      expect((await new Visitor(t.app).vote(rerun.id, 2)).statusCode).toBe(201);
      const listed = (await staff.get('/api/admin/polls')).json<AdminPoll[]>().find((p) => p.id === rerun.id);
      expect(listed).toMatchObject({ status: 'active', liveDate: '2026-11-14' });

      t.clock.set(newYorkTime('2026-11-22', '00:00:10'));
      expect((await t.app.jobs.tick()).activatedPollId).toBe(next.id);
      const archive = (await new Visitor(t.app).get('/api/polls')).json<
        { question: string; liveDate: string; totalVotes: number }[]
      >();
      expect(archive.map((p) => [p.question, p.liveDate, p.totalVotes])).toEqual([
        ['Current?', '2026-11-21', 0],
        ['Ran on the 14th?', '2026-11-14', 4],
      ]);
      const page = (await new Visitor(t.app).get(`/api/polls/number/${rerun.pollNumber}`)).json<{ liveDate: string }>();
      expect(page.liveDate).toBe('2026-11-14');
    });

    it('never puts a missed poll live by itself: staff see it as missed and can run it or give it a new date', async () => {
      await seedPoll(t.db, { question: 'Current?', liveDate: '2026-11-19' });
      const missed = await seedPoll(t.db, {
        question: 'Due while the site was down?',
        status: 'scheduled',
        liveDate: '2026-11-20',
      });
      const later = await seedPoll(t.db, { question: 'Later?', status: 'scheduled', liveDate: '2026-11-24' });

      expect((await t.app.jobs.tick()).activatedPollId).toBeNull();
      expect((await staff.post('/api/admin/update-poll-status')).json().activatedPollId).toBeNull();
      // A day with nothing scheduled: the current poll stays, the missed one still waits.
      t.clock.set(newYorkTime('2026-11-22', '00:00:10'));
      expect((await t.app.jobs.tick()).activatedPollId).toBeNull();
      expect((await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>().question).toBe('Current?');
      await staff.post('/api/admin/login', TEST_SIGN_IN);
      const statuses = (await staff.get('/api/admin/polls')).json<AdminPoll[]>().map((p) => [p.id, p.status]);
      expect(statuses).toEqual(
        expect.arrayContaining([
          [missed.id, 'missed'],
          [later.id, 'scheduled'],
        ]),
      );
      expect((await new Visitor(t.app).get(`/api/polls/number/${missed.pollNumber}`)).statusCode).toBe(404);

      const keepsPastDate = await staff.request({
        method: 'PUT',
        url: `/api/admin/polls/${missed.id}`,
        payload: draft({ liveDate: '2026-11-20' }),
      });
      expect(keepsPastDate.statusCode).toBe(400);
      const moved = await staff.request({
        method: 'PUT',
        url: `/api/admin/polls/${missed.id}`,
        payload: draft({ liveDate: '2026-11-23' }),
      });
      expect(moved.json<SavedPoll>().poll).toMatchObject({ status: 'scheduled', liveDate: '2026-11-23' });
      t.clock.set(newYorkTime('2026-11-23', '00:00:10'));
      expect((await t.app.jobs.tick()).activatedPollId).toBe(missed.id);
    });

    it('runs a missed poll on "Make Active Now", dated today', async () => {
      await seedPoll(t.db, { question: 'Current?', liveDate: '2026-11-19' });
      const missed = await seedPoll(t.db, { question: 'Missed?', status: 'scheduled', liveDate: '2026-11-20' });
      expect((await staff.request({ method: 'PUT', url: `/api/admin/polls/${missed.id}/activate` })).statusCode).toBe(
        200,
      );
      expect((await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>()).toMatchObject({
        id: missed.id,
        liveDate: '2026-11-21',
      });
    });

    it('runs the day’s switch on "Update Poll Status": the poll dated today goes live, once', async () => {
      await seedPoll(t.db, { question: 'Yesterday?', liveDate: '2026-11-20' });
      const tomorrow = (await staff.post('/api/admin/polls', draft({ liveDate: '2026-11-22' }))).json<SavedPoll>().poll;

      expect((await staff.post('/api/admin/update-poll-status')).json()).toEqual({
        message: 'Poll statuses updated!',
        activatedPollId: null,
      });
      t.clock.set(newYorkTime('2026-11-22', '00:00'));
      // Fourteen hours on, the session has ended (twelve at most): sign in again.
      expect((await staff.post('/api/admin/update-poll-status')).statusCode).toBe(401);
      await staff.post('/api/admin/login', TEST_SIGN_IN);
      expect((await staff.post('/api/admin/update-poll-status')).json().activatedPollId).toBe(tomorrow.id);
      expect((await staff.post('/api/admin/update-poll-status')).json().activatedPollId).toBeNull();
      expect((await new Visitor(t.app).get('/api/polls/active')).json<ActivePoll>().id).toBe(tomorrow.id);
    });

    it('lists every vote, anonymous ones without an e-mail, oldest first; a page at a time with limit and after', async () => {
      const poll = await seedPoll(t.db, { options: ['A', 'B'] });
      await insertVoteRow(t.db, {
        pollId: poll.id,
        optionIndex: 1,
        voterEmail: 'b@example.org',
        createdAt: '2026-11-21T15:00:00.000Z',
      });
      await insertVoteRow(t.db, {
        pollId: poll.id,
        optionIndex: 0,
        voterEmail: null,
        createdAt: '2026-11-21T15:01:00.000Z',
      });
      await insertVoteRow(t.db, {
        pollId: poll.id,
        optionIndex: 0,
        voterEmail: 'a@example.org',
        createdAt: '2026-11-21T15:02:00.000Z',
      });
      // Without withEmail, no address, even for the owner: the column is not read.
      const all = await staff.get(`/api/admin/polls/${poll.id}/votes`);
      expect(all.headers['content-type']).toBe('application/json; charset=utf-8');
      const votes = all.json<VoteRecord[]>();
      expect(votes.map(({ voterEmail, optionIndex, createdAt }) => ({ voterEmail, optionIndex, createdAt }))).toEqual([
        { voterEmail: null, optionIndex: 1, createdAt: '2026-11-21T15:00:00.000Z' },
        { voterEmail: null, optionIndex: 0, createdAt: '2026-11-21T15:01:00.000Z' },
        { voterEmail: null, optionIndex: 0, createdAt: '2026-11-21T15:02:00.000Z' },
      ]);
      expect(all.body).not.toContain('@');
      expect((await staff.get(`/api/admin/polls/${poll.id}/votes?limit=10`)).body).not.toContain('@');
      const withEmails = (await staff.get(`/api/admin/polls/${poll.id}/votes?withEmail=true`)).json<VoteRecord[]>();
      expect(withEmails.map((vote) => vote.voterEmail)).toEqual(['b@example.org', 'a@example.org']);

      const firstPage = (await staff.get(`/api/admin/polls/${poll.id}/votes?withEmail=true&limit=1`)).json<
        VoteRecord[]
      >();
      expect(firstPage.map((v) => v.voterEmail)).toEqual(['b@example.org']);
      const secondPage = (
        await staff.get(`/api/admin/polls/${poll.id}/votes?withEmail=true&limit=1&after=${firstPage[0]?.id}`)
      ).json<VoteRecord[]>();
      expect(secondPage.map((v) => v.voterEmail)).toEqual(['a@example.org']);
      expect(
        (await staff.get(`/api/admin/polls/${poll.id}/votes?withEmail=true&limit=1&after=${secondPage[0]?.id}`)).json(),
      ).toEqual([]);
      expect((await staff.get(`/api/admin/polls/${poll.id}/votes/summary`)).json()).toEqual({
        totalVotes: 3,
        withEmail: 2,
        options: [
          { option: 'A', votes: 2, withEmail: 1 },
          { option: 'B', votes: 1, withEmail: 1 },
        ],
      });

      expect((await staff.get(`/api/admin/polls/${poll.id}/votes?limit=0`)).statusCode).toBe(400);
      expect((await staff.get(`/api/admin/polls/${poll.id}/votes?withEmail=yes`)).statusCode).toBe(400);
      for (const path of ['votes', 'votes/summary', 'votes.csv']) {
        expect((await staff.get(`/api/admin/polls/999/${path}`)).statusCode).toBe(404);
        expect((await staff.get(`/api/admin/polls/abc/${path}`)).statusCode).toBe(400);
      }
    });

    it('exports every vote as CSV, streamed across pages, with New York dates and times', async () => {
      const poll = await seedPoll(t.db, {
        question: 'Should homework be banned?',
        options: ['Yes, "all" of it', 'No'],
      });
      const many = Array.from({ length: 12_001 }, (_, i) => ({
        poll_id: poll.id,
        voter_id: `voter-${i}`,
        option_index: i % 2,
        voter_email: i === 0 ? 'pat@example.org' : null,
        voted_on: '2026-11-21',
        // The first at 23:30 on November 21 in New York (04:30 UTC the next day).
        created_at: new Date(Date.parse('2026-11-22T04:30:00.000Z') + i * 1000).toISOString(),
      }));
      for (let start = 0; start < many.length; start += 2000)
        await t.db
          .insertInto('votes')
          .values(many.slice(start, start + 2000))
          .execute();

      const response = await staff.get(`/api/admin/polls/${poll.id}/votes.csv`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="poll-votes-${poll.id}-2026-11-21.csv"`,
      );
      expect(response.body.startsWith('\uFEFF')).toBe(true);
      const lines = response.body.slice(1).split('\r\n');
      // Without e-mails: the Voter Email column stays, empty on every row.
      expect(lines.slice(0, 3)).toEqual([
        'Poll Question,Selected Option,Voter Email,Vote Date,Vote Time',
        'Should homework be banned?,"Yes, ""all"" of it",,2026-11-21,23:30:00',
        'Should homework be banned?,No,,2026-11-21,23:30:01',
      ]);
      expect(response.body).not.toContain('@');
      expect(lines.at(-1)).toBe('');
      expect(lines).toHaveLength(1 + 12_001 + 1);
      expect(lines.at(-2)).toBe('Should homework be banned?,"Yes, ""all"" of it",,2026-11-22,02:50:00');
    });

    it('leaves held and discounted votes out of every export: the list, the summary and the CSV', async () => {
      const poll = await seedPoll(t.db, { options: ['Yes', 'No'] });
      const row = (i: number, status: 'counted' | 'held' | 'discounted') => ({
        poll_id: poll.id,
        voter_id: `voter-${i}`,
        option_index: 1,
        voter_email: `teacher${i}@example.org`,
        voted_on: '2026-11-21',
        created_at: `2026-11-21T15:00:0${i}.000Z`,
        status,
      });
      await t.db
        .insertInto('votes')
        .values([row(1, 'counted'), row(2, 'held'), row(3, 'discounted')])
        .execute();
      const list = (await staff.get(`/api/admin/polls/${poll.id}/votes?withEmail=true&limit=10`)).json<
        { voterEmail: string }[]
      >();
      expect(list.map((vote) => vote.voterEmail)).toEqual(['teacher1@example.org']);
      const summary = (await staff.get(`/api/admin/polls/${poll.id}/votes/summary`)).json<{ withEmail: number }>();
      expect(summary.withEmail).toBe(1);
      const csv = (await staff.get(`/api/admin/polls/${poll.id}/votes.csv?withEmail=true`)).body;
      expect(csv).toContain('teacher1@example.org');
      expect(csv).not.toContain('teacher2@example.org');
      expect(csv).not.toContain('teacher3@example.org');
    });

    it('neutralises every CSV cell a spreadsheet would run, multi-line ones included', async () => {
      const poll = await seedPoll(t.db, {
        question: '=HYPERLINK("http://evil.example","click")\nsecond line',
        options: ['+1', '-2', '@SUM(A1)'],
      });
      await insertVoteRow(t.db, { pollId: poll.id, optionIndex: 2, voterEmail: '=cmd@example.org' });
      await insertVoteRow(t.db, { pollId: poll.id, optionIndex: 0 });
      const csv = (await staff.get(`/api/admin/polls/${poll.id}/votes.csv?withEmail=true`)).body.slice(1);
      const rows = Papa.parse<string[]>(csv.trim(), { newline: '\r\n' }).data;
      expect(rows).toHaveLength(3);
      expect(rows[1]?.slice(0, 3)).toEqual([
        `'=HYPERLINK("http://evil.example","click")\nsecond line`,
        "'@SUM(A1)",
        "'=cmd@example.org",
      ]);
      expect(rows[2]?.[1]).toBe("'+1");
      for (const cell of [...(rows[1] ?? []), ...(rows[2] ?? [])]) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    });

    it('neutralises a cell that starts with a minus, a tab or a carriage return, whatever follows', async () => {
      // Rows written straight to the database: the API refuses tabs and lone returns in options
      // now, but polls stored before that may hold them.
      const options = ['-2+3', '\tTAB()', '\r=RETURN\nmore', 'Plain - fine'];
      const poll = await seedPoll(t.db, { question: 'Which?', options });
      for (const optionIndex of [0, 1, 2, 3]) await insertVoteRow(t.db, { pollId: poll.id, optionIndex });
      const csv = (await staff.get(`/api/admin/polls/${poll.id}/votes.csv`)).body.slice(1);
      const rows = Papa.parse<string[]>(csv.trim(), { newline: '\r\n', delimiter: ',' }).data;
      expect(rows.slice(1).map((row) => row[1])).toEqual(["'-2+3", "'\tTAB()", "'\r=RETURN\nmore", 'Plain - fine']);
    });
  });

  describe('suggestions', () => {
    it('lists every suggestion with its e-mail, and approves, rejects and deletes them', async () => {
      const first = await seedSuggestion('First?');
      const second = await seedSuggestion('Second?');
      const list = (await staff.get('/api/poll-suggestions')).json<AdminSuggestion[]>();
      expect(list.map((s) => [s.question, s.status, s.email])).toEqual([
        ['Second?', 'pending', 'rivera@example.org'],
        ['First?', 'pending', 'rivera@example.org'],
      ]);

      const approve = await staff.request({
        method: 'PUT',
        url: `/api/admin/poll-suggestions/${first}/status`,
        payload: { status: 'approved' },
      });
      expect(approve.json()).toEqual({ message: 'Suggestion approved!' });
      const reject = await staff.request({
        method: 'PUT',
        url: `/api/admin/poll-suggestions/${second}/status`,
        payload: { status: 'rejected' },
      });
      expect(reject.json()).toEqual({ message: 'Suggestion rejected' });
      const reviewed = (await staff.get('/api/poll-suggestions')).json<AdminSuggestion[]>();
      expect(reviewed.map((s) => s.status)).toEqual(['rejected', 'approved']);
      expect(reviewed.every((s) => s.reviewedAt !== null)).toBe(true);

      const bad = await staff.request({
        method: 'PUT',
        url: `/api/admin/poll-suggestions/${first}/status`,
        payload: { status: 'maybe' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('The status must be "approved" or "rejected".');

      expect((await staff.request({ method: 'DELETE', url: `/api/admin/poll-suggestions/${first}` })).json()).toEqual({
        message: 'Suggestion deleted!',
      });
      expect((await staff.request({ method: 'DELETE', url: `/api/admin/poll-suggestions/${first}` })).statusCode).toBe(
        404,
      );
      expect((await staff.get('/api/poll-suggestions')).json<AdminSuggestion[]>()).toHaveLength(1);
    });

    /** Every page of a list, read as the panel reads it: each from where the one before ended. */
    async function readPages(query: string, between: (page: number) => Promise<void> = async () => {}) {
      const pages: SuggestionsPage[] = [];
      let after: string | null = null;
      do {
        const url = `/api/poll-suggestions?${query}${after ? `&after=${after}` : ''}`;
        const response = await staff.get(url);
        expect(response.statusCode, url).toBe(200);
        pages.push(response.json<SuggestionsPage>());
        after = pages.at(-1)!.next;
        if (after) await between(pages.length);
      } while (after);
      return pages;
    }
    const questions = (pages: SuggestionsPage[]) => pages.map((page) => page.suggestions.map((s) => s.question));

    it('pages each list newest first with its total, each suggestion once, however the list changes between pages', async () => {
      // Three sent in the same millisecond, then one a minute.
      const ids = new Map<string, number>();
      for (const [n, question] of ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7'].entries()) {
        if (n >= 3) t.clock.advance(60_000);
        ids.set(question, await seedSuggestion(question));
      }
      const review = (question: string, status: 'approved' | 'rejected') =>
        staff.put(`/api/admin/poll-suggestions/${ids.get(question)}/status`, { status });

      const pending = await readPages('status=pending&limit=3');
      expect(questions(pending)).toEqual([['S7', 'S6', 'S5'], ['S4', 'S3', 'S2'], ['S1']]);
      expect(pending.map((page) => page.total)).toEqual([7, 7, 7]);
      expect(pending[0]!.suggestions[0]).toMatchObject({ email: 'rivera@example.org', suggestedBy: 'Ms. Rivera' });

      // While staff read: one on the next page is deleted, one approved, and a new one comes in.
      const changing = await readPages('status=pending&limit=3', async (page) => {
        if (page !== 1) return;
        await staff.delete(`/api/admin/poll-suggestions/${ids.get('S4')}`);
        t.clock.advance(60_000);
        await review('S2', 'approved');
        await seedSuggestion('S8');
      });
      expect(questions(changing)).toEqual([
        ['S7', 'S6', 'S5'],
        ['S3', 'S1'],
      ]);
      expect(changing.map((page) => page.total)).toEqual([7, 6]);

      // Reviewed ones come by when they were reviewed, the latest first.
      t.clock.advance(60_000);
      await review('S7', 'rejected');
      t.clock.advance(60_000);
      await review('S1', 'approved');
      const reviewed = await readPages('status=reviewed&limit=2');
      expect(questions(reviewed)).toEqual([['S1', 'S7'], ['S2']]);
      expect(reviewed.map((page) => page.total)).toEqual([3, 3]);
      expect(questions(await readPages('status=pending&limit=100'))).toEqual([['S8', 'S6', 'S5', 'S3']]);

      // Without a status, every suggestion by when it came in; without a limit, all of them at once, as before pages.
      const all = await readPages('limit=4');
      expect(questions(all)).toEqual([
        ['S8', 'S7', 'S6', 'S5'],
        ['S3', 'S2', 'S1'],
      ]);
      const whole = (await staff.get('/api/poll-suggestions')).json<AdminSuggestion[]>();
      expect(whole).toEqual(all.flatMap((page) => page.suggestions));
    });

    it('sends the whole list without a limit, however long, in the order of the pages', async () => {
      // More than two of the pages it is read in; three at a time share a second.
      const count = 1_203;
      const rows = Array.from({ length: count }, (_, n) => ({
        question: `Q${n}?`,
        options: '["Yes","No"]',
        created_at: new Date(Date.UTC(2026, 10, 1) + Math.floor(n / 3) * 1000).toISOString(),
      }));
      for (let from = 0; from < count; from += 500) {
        await t.db
          .insertInto('poll_suggestions')
          .values(rows.slice(from, from + 500))
          .execute();
      }
      const whole = (await staff.get('/api/poll-suggestions')).json<AdminSuggestion[]>();
      expect(whole).toHaveLength(count);
      expect(whole.map((s) => s.question)).toEqual(Array.from({ length: count }, (_, i) => `Q${count - 1 - i}?`));
      const pages = await readPages('limit=100');
      expect(pages).toHaveLength(13);
      expect(pages.flatMap((page) => page.suggestions)).toEqual(whole);
    });

    it('refuses a page it cannot read with 400 and says why', async () => {
      await seedSuggestion();
      const cases: [string, string][] = [
        ['limit=0', 'limit must be a number from 1 to 100.'],
        ['limit=101', 'limit must be a number from 1 to 100.'],
        ['limit=ten', 'limit must be a number from 1 to 100.'],
        ['limit=5&status=maybe', 'status must be pending or reviewed.'],
        ['limit=5&after=yesterday', 'after must be the next of an earlier page.'],
        ['limit=5&after=1795276800000.99999999999', 'after must be the next of an earlier page.'],
        ['limit=5&after=1.1&after=2.2', 'after must be the next of an earlier page.'],
        ['status=pending', 'Add a limit (1 to 100) to read a page of suggestions.'],
        ['after=1795276800000.4', 'Add a limit (1 to 100) to read a page of suggestions.'],
      ];
      for (const [query, message] of cases) {
        const response = await staff.get(`/api/poll-suggestions?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().message, query).toBe(message);
      }
      expect((await staff.get('/api/poll-suggestions?limit=100')).statusCode).toBe(200);
    });
  });
});

describe.each(testDatabaseKinds())('the daily switch under concurrency (%s)', (kind) => {
  it('switches once, however many run it at the same moment', async () => {
    const t = await createTestApp(kind);
    try {
      await seedPoll(t.db, { question: 'Yesterday?', liveDate: '2026-11-20' });
      const today = await seedPoll(t.db, { question: 'Today?', status: 'scheduled', liveDate: '2026-11-21' });
      const clock = new TestClock(newYorkTime('2026-11-21', '00:00'));
      const schedule = createScheduleService({
        db: t.db,
        clock,
        site: testSite(),
        activePoll: new ActivePollCache(t.db, clock),
        mailQueued: () => {},
      });
      const results = await Promise.all(Array.from({ length: 10 }, () => schedule.switchDay()));
      expect(results.filter((r) => r.activatedPollId === today.id)).toHaveLength(1);
      const statuses = await t.db.selectFrom('polls').select(['question', 'status']).orderBy('id').execute();
      expect(statuses).toEqual([
        { question: 'Yesterday?', status: 'past' },
        { question: 'Today?', status: 'active' },
      ]);
    } finally {
      await t.close();
    }
  });
});

/**
 * Staff actions racing each other and visitors, on one instance and, on PostgreSQL, on two
 * instances sharing the database (the deployment the README describes). Nothing answers 500.
 */
describe.each(testDatabaseKinds())('staff actions under concurrency (%s)', (kind) => {
  let instances: TestApp[];
  let staff: Visitor[];

  beforeEach(async () => {
    const database = await createTestDatabase(kind);
    // Two SQLite connections in one process cannot stand in for two servers (see email.test.ts).
    instances =
      kind === 'postgres'
        ? [await createTestAppOn(database, { keepDatabase: true }), await createTestAppOn(database)]
        : [await createTestAppOn(database)];
    staff = [];
    for (const instance of instances) {
      const visitor = new Visitor(instance.app, { origin: instance.config.site.publicUrl });
      await visitor.post('/api/admin/login', TEST_SIGN_IN);
      staff.push(visitor);
    }
  });
  afterEach(async () => {
    for (const instance of [...instances].reverse()) await instance.close();
  });

  const at = <T>(list: T[], i: number): T => list[i % list.length] as T;

  it('takes "Make Active" pressed by two staff at once, on two instances: the first wins, the other gets a 409 with a message', async () => {
    const db = at(instances, 0).db;
    await seedPoll(db, { question: 'Current?' });
    const polls: Awaited<ReturnType<typeof seedPoll>>[] = [];
    for (const day of ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26']) {
      polls.push(await seedPoll(db, { status: 'scheduled', liveDate: day }));
    }
    const activeIds = () => db.selectFrom('polls').select('id').where('status', '=', 'active').execute();
    // Each round, two staff who see the same poll active press Make Active: on two polls, or on one.
    const rounds: [number, number][] = [
      [0, 1],
      [2, 2],
      [3, 0],
      [1, 1],
      [2, 3],
    ];
    for (const [first, second] of rounds) {
      const replacing = (await activeIds())[0]?.id ?? null;
      const press = (i: number, poll: number) =>
        at(staff, i).put(`/api/admin/polls/${polls[poll]?.id}/activate`, { replacing });
      const responses = await Promise.all([press(0, first), press(1, second)]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const refused = responses.find((r) => r.statusCode === 409);
      expect(refused?.json()).toEqual({
        code: 'conflict',
        message:
          first === second
            ? 'This poll was just made active by someone else.'
            : 'Another poll was just made active, so nothing changed. Check the list, then try again.',
      });
      const winner = responses[0].statusCode === 200 ? first : second;
      expect(await activeIds()).toEqual([{ id: polls[winner]?.id }]);
    }
    const outbox = await db.selectFrom('email_outbox').select('id').execute();
    expect(outbox).toEqual([]); // no subscribers: nothing queued, and nothing failed
  });

  it('takes "Make Active" sent without saying what it replaces as often as it comes: each answers 200, one poll ends up active', async () => {
    const db = at(instances, 0).db;
    await seedPoll(db, { question: 'Current?' });
    const polls = [];
    for (const day of ['2026-11-23', '2026-11-24'])
      polls.push(await seedPoll(db, { status: 'scheduled', liveDate: day }));
    const responses = await Promise.all(
      polls.flatMap((poll, i) =>
        [0, 1].map((j) => at(staff, i + j).request({ method: 'PUT', url: `/api/admin/polls/${poll.id}/activate` })),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(responses.map(() => 200));
    expect(await db.selectFrom('polls').select('id').where('status', '=', 'active').execute()).toHaveLength(1);
  });

  it("answers votes sent while staff delete today's poll with 201, 404 or 409, never 500", async () => {
    const db = at(instances, 0).db;
    const poll = await seedPoll(db, { options: ['A', 'B'] });
    // Every instance has read today's poll, as a busy site's have.
    for (const instance of instances)
      expect((await new Visitor(instance.app).get('/api/polls/active')).statusCode).toBe(200);
    const vote = (i: number) => new Visitor(at(instances, i).app).vote(poll.id, i % 2);
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => vote(i)));
    // Votes keep arriving while the poll is deleted through the last instance, and just after,
    // when the other instance's copy of today's poll (up to a second old) still shows it.
    const deletion = at(staff, instances.length - 1).request({ method: 'DELETE', url: `/api/admin/polls/${poll.id}` });
    responses.push(...(await Promise.all(Array.from({ length: 100 }, (_, i) => vote(i)))));
    expect((await deletion).statusCode).toBe(200);
    responses.push(...(await Promise.all(Array.from({ length: 50 }, (_, i) => vote(i * 2)))));
    const statuses = new Set(responses.map((r) => r.statusCode));
    expect([...statuses].filter((status) => ![201, 404, 409].includes(status))).toEqual([]);
    expect(statuses.has(404)).toBe(true);
    expect(responses.every((r) => typeof r.json<{ message: unknown }>().message === 'string')).toBe(true);
    expect(await db.selectFrom('votes').select('id').execute()).toEqual([]);
  });
});
