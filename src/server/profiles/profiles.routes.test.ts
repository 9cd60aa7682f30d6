import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Breakdown, Profile } from '../../shared/api.js';
import { EMPTY_PROFILE } from '../../shared/profile.js';
import { NONE_IN_SCOPE, shownGroup } from '../testing/breakdowns.js';
import { seedPoll } from '../testing/fixtures.js';
import { snapshotDatabase } from '../testing/snapshot.js';
import { createTestApp, TEST_SIGN_IN, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import type { PollRecord } from '../polls/poll.js';

// Every draw in the middle: each breakdown count is published as its nearest multiple of 5.
vi.mock('../breakdowns/rounding-draw.js', () => ({ roundingDraw: () => 0.5 }));

describe.each(testDatabaseKinds())('the profile (%s)', (kind) => {
  let t: TestApp;
  let poll: PollRecord;

  beforeEach(async () => {
    t = await createTestApp(kind);
    poll = await seedPoll(t.db, { options: ['Yes', 'No'] });
  });
  afterEach(() => t.close());

  const leader: Partial<Profile> = {
    role: 'school-leader',
    gradeBand: 'middle',
    region: 'midwest',
    experience: '11-20',
  };

  /** The tallies of one group of a poll, per option, read with plain SQL. */
  async function groupVotes(pollId: number, dimension: string, value: string): Promise<number[]> {
    const rows = await t.db
      .selectFrom('poll_group_tallies')
      .select(['option_index', 'vote_count'])
      .where('poll_id', '=', pollId)
      .where('dimension', '=', dimension)
      .where('group_value', '=', value)
      .orderBy('option_index')
      .execute();
    return [0, 1].map((i) => rows.find((row) => row.option_index === i)?.vote_count ?? 0);
  }

  /** The tallies of the classroom teachers' and the school leaders' groups of a poll, per option. */
  const teachersAndLeaders = async (pollId: number) => ({
    teachers: await groupVotes(pollId, 'role', 'classroom-teacher'),
    leaders: await groupVotes(pollId, 'role', 'school-leader'),
  });

  /** A new browser that says it is a classroom teacher, then votes on the first poll. */
  async function classroomTeacherVoting(optionIndex: number) {
    const visitor = new Visitor(t.app);
    await visitor.put('/api/me/profile', { role: 'classroom-teacher' });
    await visitor.vote(poll.id, optionIndex);
    return visitor;
  }

  describe('GET and PUT /api/me/profile', () => {
    it('answers an empty profile to a browser that has none, without giving it a cookie', async () => {
      const visitor = new Visitor(t.app);
      const response = await visitor.get('/api/me/profile');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(EMPTY_PROFILE);
      expect(visitor.voterId).toBeUndefined();
    });

    it('saves any subset, keeps the rest, clears with null, and issues a voter cookie before any vote', async () => {
      const visitor = new Visitor(t.app);
      const saved = await visitor.put('/api/me/profile', { role: 'classroom-teacher', region: 'south' });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toEqual({ ...EMPTY_PROFILE, role: 'classroom-teacher', region: 'south' });
      expect(visitor.voterId).toMatch(/^[A-Za-z0-9_-]{22}$/);

      const more = await visitor.put('/api/me/profile', { experience: '0-2', region: null });
      expect(more.json()).toEqual({ ...EMPTY_PROFILE, role: 'classroom-teacher', experience: '0-2' });
      expect((await visitor.get('/api/me/profile')).json()).toEqual(more.json());
      // Another browser sees only its own.
      expect((await new Visitor(t.app).get('/api/me/profile')).json()).toEqual(EMPTY_PROFILE);
    });

    it('refuses unknown ids, unknown fields, wrong types and free text with a 400, storing nothing', async () => {
      const visitor = new Visitor(t.app);
      await visitor.put('/api/me/profile', { role: 'school-leader' });
      const before = await snapshotDatabase(t.db);
      const bad: [unknown, RegExp][] = [
        [{ role: 'principal' }, /Role must be one of: classroom-teacher/],
        [{ gradeBand: 'K-5' }, /Grade level must be one of/],
        [{ region: 'Ohio' }, /Region must be one of/],
        [{ experience: 7 }, /Experience must be one of/],
        [{ school: 'Lincoln Elementary' }, /Unknown profile field: school/],
        [{ role: 'classroom-teacher', name: 'Pat' }, /Unknown profile field: name/],
        [['role', 'school-leader'], /JSON object/],
        [{ role: 'school-leader\u0000' }, /Role must be one of/],
      ];
      for (const [body, message] of bad) {
        const response = await visitor.put('/api/me/profile', body as object);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().code).toBe('validation');
        expect(response.json().message).toMatch(message);
      }
      expect(await snapshotDatabase(t.db)).toEqual(before);
      expect((await visitor.get('/api/me/profile')).json()).toEqual({ ...EMPTY_PROFILE, role: 'school-leader' });
    });
  });

  describe('the copy of the profile each vote keeps', () => {
    it('counts a vote in the groups its voter gave before voting', async () => {
      const visitor = new Visitor(t.app);
      await visitor.put('/api/me/profile', leader);
      expect((await visitor.vote(poll.id, 1)).statusCode).toBe(201);
      expect(await groupVotes(poll.id, 'role', 'school-leader')).toEqual([0, 1]);
      expect(await groupVotes(poll.id, 'gradeBand', 'middle')).toEqual([0, 1]);
      expect(await groupVotes(poll.id, 'region', 'midwest')).toEqual([0, 1]);
      expect(await groupVotes(poll.id, 'experience', '11-20')).toEqual([0, 1]);
    });

    it('counts today’s vote in the groups given after voting ("vote, then tell us about you")', async () => {
      const visitor = new Visitor(t.app);
      await visitor.vote(poll.id, 0);
      expect(await groupVotes(poll.id, 'role', 'classroom-teacher')).toEqual([0, 0]);
      await visitor.put('/api/me/profile', { role: 'classroom-teacher' });
      expect(await groupVotes(poll.id, 'role', 'classroom-teacher')).toEqual([1, 0]);
      // Changing the answer moves the vote; clearing it takes it out of every group.
      await visitor.put('/api/me/profile', { role: 'support-staff' });
      expect(await groupVotes(poll.id, 'role', 'classroom-teacher')).toEqual([0, 0]);
      expect(await groupVotes(poll.id, 'role', 'support-staff')).toEqual([1, 0]);
      await visitor.put('/api/me/profile', { role: null });
      expect(await groupVotes(poll.id, 'role', 'support-staff')).toEqual([0, 0]);
    });

    it('never changes a past poll’s breakdown when a profile changes, but does change today’s', async () => {
      const visitor = await classroomTeacherVoting(0);
      // The next day, yesterday's poll is past and another one is live.
      t.clock.set(newYorkTime('2026-11-22', '09:00'));
      await t.db.updateTable('polls').set({ status: 'past' }).where('id', '=', poll.id).execute();
      const today = await seedPoll(t.db, { options: ['Yes', 'No'], liveDate: '2026-11-22' });
      await visitor.vote(today.id, 1);

      await visitor.put('/api/me/profile', { role: 'school-leader' });
      expect(await teachersAndLeaders(poll.id)).toEqual({ teachers: [1, 0], leaders: [0, 0] });
      expect(await teachersAndLeaders(today.id)).toEqual({ teachers: [0, 0], leaders: [0, 1] });
    });

    it('leaves today’s breakdown as it is once voting has closed', async () => {
      const visitor = await classroomTeacherVoting(0);
      t.clock.set(newYorkTime('2026-11-21', '20:00'));
      const saved = await visitor.put('/api/me/profile', { role: 'school-leader' });
      expect(saved.json().role).toBe('school-leader');
      expect(await teachersAndLeaders(poll.id)).toEqual({ teachers: [1, 0], leaders: [0, 0] });
    });
  });

  describe('DELETE /api/me', () => {
    it('forgets the profile, its copies and the e-mails on this browser’s votes, keeps the votes counted, and clears the cookie', async () => {
      const visitor = new Visitor(t.app);
      await visitor.put('/api/me/profile', leader);
      await visitor.vote(poll.id, 1, 'pat@example.org');
      const voterId = visitor.voterId ?? '';
      const other = new Visitor(t.app);
      await other.put('/api/me/profile', { role: 'school-leader' });
      await other.vote(poll.id, 0, 'sam@example.org');
      const profileTallies = () =>
        t.db.selectFrom('poll_profile_tallies').selectAll().orderBy('voter_profile').orderBy('option_index').execute();
      const talliesBefore = await profileTallies();

      const response = await visitor.delete('/api/me');
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const cleared = response.cookies.find((c) => c.name === 'voter_id');
      expect(cleared).toMatchObject({ value: '', maxAge: 0 });

      expect(
        await t.db.selectFrom('profile_answers').select('voter_id').where('voter_id', '=', voterId).execute(),
      ).toEqual([]);
      const votes = await t.db
        .selectFrom('votes')
        .select(['voter_email', 'option_index', 'voter_profile'])
        .orderBy('id')
        .execute();
      // No copy of the profile is left on this browser's vote; the other browser's keeps its own.
      expect(votes).toEqual([
        { voter_email: null, option_index: 1, voter_profile: null },
        { voter_email: 'sam@example.org', option_index: 0, voter_profile: 'school-leader///' },
      ]);
      expect(await groupVotes(poll.id, 'role', 'school-leader')).toEqual([1, 1]);
      // What was counted stays counted.
      expect(await profileTallies()).toEqual(talliesBefore);
      expect(talliesBefore).toHaveLength(2);
      // The other browser keeps everything.
      expect((await other.get('/api/me/profile')).json().role).toBe('school-leader');

      // Forgotten: the browser is a stranger now.
      visitor.cookies.delete('voter_id');
      expect((await visitor.get('/api/me/profile')).json()).toEqual(EMPTY_PROFILE);
    });

    it('answers 204 to a browser the site never knew, changing nothing', async () => {
      const before = await snapshotDatabase(t.db);
      expect((await new Visitor(t.app).delete('/api/me')).statusCode).toBe(204);
      expect(await snapshotDatabase(t.db)).toEqual(before);
    });
  });

  it('never shows staff a profile next to an e-mail or a vote: not in the vote list, the summary or the CSV', async () => {
    const visitor = new Visitor(t.app);
    await visitor.put('/api/me/profile', leader);
    await visitor.vote(poll.id, 1, 'pat@example.org');
    const staff = new Visitor(t.app, { origin: t.config.site.publicUrl });
    await staff.post('/api/admin/login', TEST_SIGN_IN);
    const answers = Object.values(leader);
    for (const url of [
      `/api/admin/polls/${poll.id}/votes?withEmail=true`,
      `/api/admin/polls/${poll.id}/votes/summary`,
      `/api/admin/polls/${poll.id}/votes.csv?withEmail=true`,
    ]) {
      const response = await staff.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain(url.endsWith('summary') ? '"withEmail":1' : 'pat@example.org');
      for (const answer of answers) expect(response.body, url).not.toContain(answer);
      expect(response.body, url).not.toMatch(/role|gradeBand|grade_band|region|experience/i);
    }
  });

  it('shows the breakdown with the voter’s groups after the close', async () => {
    for (let i = 0; i < 10; i += 1) await classroomTeacherVoting(i < 7 ? 0 : 1);
    t.clock.set(newYorkTime('2026-11-21', '20:00'));
    const response = await new Visitor(t.app).get(`/api/polls/${poll.id}/breakdown`);
    expect(response.statusCode).toBe(200);
    const role = response.json<Breakdown>().dimensions.find((d) => d.dimension === 'role');
    expect(role?.groups).toEqual([
      // 7 and 3, each published as its nearest multiple of 5.
      shownGroup('classroom-teacher', 'Classroom teacher', { Yes: [5, 50], No: [5, 50] }, NONE_IN_SCOPE),
    ]);
  });
});
