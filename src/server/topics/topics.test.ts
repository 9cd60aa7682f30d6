import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminPoll, OpenPoll, PastPoll, PollResults, SuggestionsPage, Topic } from '../../shared/api.js';
import { setPollTopics, topicIdsOf } from '../polls/poll-topics.repository.js';
import { seedPoll } from '../testing/fixtures.js';
import { signedInStaff } from '../testing/staff.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { injectChecked } from '../testing/contract.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

const SEEDED = [
  'Workload',
  'Pay and conditions',
  'Behaviour',
  'Curriculum and assessment',
  'Technology and AI',
  'Leadership',
  'Wellbeing',
  'Policy',
];

describe.each(testDatabaseKinds())('topics (%s)', (kind) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(kind);
  });
  afterEach(() => t.close());

  const auditActions = async () =>
    (await t.db.selectFrom('audit_log').select(['action', 'summary', 'target']).orderBy('id').execute()).filter(
      (row) => row.action.startsWith('topic.') || row.action.startsWith('poll.'),
    );

  async function give(pollId: number, slugs: string[]) {
    await setPollTopics(t.db, pollId, (await topicIdsOf(t.db, slugs)) ?? []);
  }

  it('starts with the seeded list, in order, for everyone', async () => {
    const response = await injectChecked(t.app, { method: 'GET', url: '/api/topics' });
    expect(response.statusCode).toBe(200);
    const topics = response.json<Topic[]>();
    expect(topics.map((topic) => topic.name)).toEqual(SEEDED);
    expect(topics[4]).toMatchObject({ slug: 'technology-and-ai', pastPolls: 0 });
  });

  it('lets staff give a poll topics from the form, audited; a slug not on the list changes nothing', async () => {
    const { visitor } = await signedInStaff(t, 'editor');
    const draft = { question: 'Is marking taking over weekends?', options: ['Yes', 'No'], liveDate: '2026-11-25' };
    const created = await visitor.post('/api/admin/polls', { ...draft, topics: ['workload', 'wellbeing'] });
    expect(created.statusCode).toBe(201);
    const poll = created.json<{ poll: AdminPoll }>().poll;
    expect(poll.topics).toEqual([
      { slug: 'workload', name: 'Workload' },
      { slug: 'wellbeing', name: 'Wellbeing' },
    ]);
    // An edit without topics keeps them; with, replaces them.
    expect((await visitor.put(`/api/admin/polls/${poll.id}`, draft)).json().poll.topics).toHaveLength(2);
    const edited = await visitor.put(`/api/admin/polls/${poll.id}`, { ...draft, topics: ['policy'] });
    expect(edited.json().poll.topics).toEqual([{ slug: 'policy', name: 'Policy' }]);
    const refused = await visitor.put(`/api/admin/polls/${poll.id}`, {
      ...draft,
      question: 'Changed?',
      topics: ['nope'],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('There is no such topic. Choose topics from the list.');
    const listed = (await visitor.get('/api/admin/polls')).json<AdminPoll[]>();
    expect(listed.find((p) => p.id === poll.id)).toMatchObject({
      question: draft.question,
      topics: [{ slug: 'policy', name: 'Policy' }],
    });
    const tooMany = await visitor.post('/api/admin/polls', {
      ...draft,
      liveDate: '2026-11-26',
      topics: ['workload', 'behaviour', 'policy', 'leadership', 'wellbeing', 'pay-and-conditions'],
    });
    expect(tooMany.statusCode).toBe(400);
    expect((await auditActions()).map((row) => [row.action, row.summary])).toEqual([
      ['poll.create', 'Created "Is marking taking over weekends?" for 2026-11-25, topics: workload, wellbeing'],
      ['poll.edit', 'Edited to "Is marking taking over weekends?" for 2026-11-25'],
      ['poll.edit', 'Edited to "Is marking taking over weekends?" for 2026-11-25, topics: policy'],
    ]);
  });

  it('lets only the owner keep the list (can()), each change audited; the slug stays through a rename', async () => {
    const editor = await signedInStaff(t, 'editor');
    expect((await editor.visitor.post('/api/admin/topics', { name: 'Inclusion' })).statusCode).toBe(403);
    expect((await new Visitor(t.app).post('/api/admin/topics', { name: 'Inclusion' })).statusCode).toBe(401);
    const { visitor } = await signedInStaff(t, 'owner');
    const added = await visitor.post('/api/admin/topics', { name: 'Inclusion & SEND' });
    expect(added.statusCode).toBe(201);
    const { id, slug } = added.json().topic;
    expect(slug).toBe('inclusion-and-send');
    expect((await visitor.post('/api/admin/topics', { name: 'workload' })).statusCode).toBe(409);
    expect((await visitor.post('/api/admin/topics', { name: '  ' })).statusCode).toBe(400);
    expect((await visitor.post('/api/admin/topics', { name: '😀' })).statusCode).toBe(400);
    expect((await visitor.put(`/api/admin/topics/${id}`, { name: 'Inclusion' })).json().topic).toMatchObject({
      slug: 'inclusion-and-send',
      name: 'Inclusion',
    });
    const poll = await seedPoll(t.db, { question: 'Enough support staff?', liveDate: '2026-11-01', status: 'past' });
    await give(poll.id, ['inclusion-and-send', 'workload']);
    expect((await editor.visitor.delete(`/api/admin/topics/${id}`)).statusCode).toBe(403);
    expect((await visitor.delete(`/api/admin/topics/${id}`)).statusCode).toBe(200);
    expect((await visitor.delete(`/api/admin/topics/${id}`)).statusCode).toBe(404);
    const past = (await injectChecked(t.app, { method: 'GET', url: '/api/polls' })).json<PastPoll[]>();
    expect(past[0]?.topics).toEqual([{ slug: 'workload', name: 'Workload' }]);
    expect((await auditActions()).map((row) => [row.action, row.target, row.summary])).toEqual([
      ['topic.create', `topic ${id}`, 'Added the topic "Inclusion & SEND"'],
      ['topic.rename', `topic ${id}`, 'Renamed the topic to "Inclusion"'],
      ['topic.delete', `topic ${id}`, 'Deleted the topic'],
    ]);
  });

  it("shows a poll's topics in the archive and on its results", async () => {
    const poll = await seedPoll(t.db, { question: 'Too many meetings?', liveDate: '2026-11-01', status: 'past' });
    await give(poll.id, ['leadership', 'workload']);
    const [listed] = (await injectChecked(t.app, { method: 'GET', url: '/api/polls' })).json<PastPoll[]>();
    expect(listed?.topics).toEqual([
      { slug: 'workload', name: 'Workload' },
      { slug: 'leadership', name: 'Leadership' },
    ]);
    const results = (
      await injectChecked(t.app, { method: 'GET', url: `/api/polls/number/${poll.pollNumber}` })
    ).json<PollResults>();
    expect(results.topics).toEqual(listed?.topics);
  });

  it("draws a topic's page from the server with its past polls' results, and its feed and open data", async () => {
    const older = await seedPoll(t.db, {
      question: 'Is <marking> fair?',
      liveDate: '2026-10-01',
      status: 'past',
      votes: [3, 1, 0],
    });
    const newer = await seedPoll(t.db, {
      question: 'Planning time protected?',
      liveDate: '2026-11-01',
      status: 'past',
    });
    const other = await seedPoll(t.db, { question: 'Phones in class?', liveDate: '2026-11-02', status: 'past' });
    const today = await seedPoll(t.db, { question: 'Today on workload?', liveDate: '2026-11-21', status: 'active' });
    for (const poll of [older, newer, today]) await give(poll.id, ['workload']);
    await give(other.id, ['technology-and-ai']);

    const page = await injectChecked(t.app, { method: 'GET', url: '/topics/workload' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const html = page.body;
    expect(html).toContain('<h1>Workload</h1>');
    expect(html).toContain('2 past polls, newest first.');
    expect(html.indexOf('Planning time protected?')).toBeLessThan(html.indexOf('Is &lt;marking&gt; fair?'));
    expect(html).toContain('<span>Yes</span><strong>75%</strong>');
    expect(html).not.toMatch(/Today on workload|Phones in class/);
    expect(html).toContain(
      '<link rel="alternate" type="application/atom+xml" title="Workload: past polls" href="/topics/workload/feed.xml">',
    );
    expect(html).toContain('<li><a href="/topics/workload">Workload</a></li>');

    const feed = await injectChecked(t.app, { method: 'GET', url: '/topics/workload/feed.xml' });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toMatch(/application\/atom\+xml/);
    expect(feed.body).toContain('<title>Teacher Hot Take: Workload</title>');
    expect(feed.body.match(/<entry>/g)).toHaveLength(2);
    expect(feed.body).toContain('/topics/workload/feed.xml"/>');

    const data = await injectChecked(t.app, { method: 'GET', url: '/data/topics/workload.json' });
    expect(data.statusCode).toBe(200);
    expect(data.headers['access-control-allow-origin']).toBe('*');
    const json = data.json<{ topic: unknown; polls: { question: string }[] }>();
    expect(json.topic).toMatchObject({ slug: 'workload', name: 'Workload' });
    expect(json.polls.map((poll) => poll.question)).toEqual(['Is <marking> fair?', 'Planning time protected?']);
    const all = (await injectChecked(t.app, { method: 'GET', url: '/data/polls.json' })).json<{ polls: OpenPoll[] }>();
    expect(all.polls.find((poll) => poll.question === 'Phones in class?')?.topics).toEqual([
      { slug: 'technology-and-ai', name: 'Technology and AI' },
    ]);

    expect((await injectChecked(t.app, { method: 'GET', url: '/topics/no-such-topic' })).statusCode).toBe(404);
    expect((await injectChecked(t.app, { method: 'GET', url: '/topics/%3Cscript%3E' })).body).not.toContain('<script>');
    expect((await injectChecked(t.app, { method: 'GET', url: '/topics/nope/feed.xml' })).statusCode).toBe(404);
    expect((await injectChecked(t.app, { method: 'GET', url: '/data/topics/workload.csv' })).statusCode).toBe(404);
  });

  it('lets a suggestion pick a topic (validated) and the review list filter by it', async () => {
    const suggest = (payload: object) =>
      new Visitor(t.app).request({
        method: 'POST',
        url: '/api/poll-suggestions',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ options: ['Yes', 'No'], ...payload }),
      });
    expect((await suggest({ question: 'Four-day week?', topic: 'workload' })).statusCode).toBe(201);
    expect((await suggest({ question: 'AI marking?', topic: 'technology-and-ai' })).statusCode).toBe(201);
    expect((await suggest({ question: 'No topic?', topic: '' })).statusCode).toBe(201);
    const unknown = await suggest({ question: 'Bad topic?', topic: 'not-a-topic' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('There is no such topic.');
    expect((await suggest({ question: 'Bad topic?', topic: '<b>' })).statusCode).toBe(400);
    expect(await t.db.selectFrom('poll_suggestions').select('question').execute()).toHaveLength(3);

    const { visitor } = await signedInStaff(t, 'moderator');
    const page = (await visitor.get('/api/poll-suggestions?limit=10&topic=workload')).json<SuggestionsPage>();
    expect(page.total).toBe(1);
    expect(page.suggestions.map((s) => [s.question, s.topic])).toEqual([
      ['Four-day week?', { slug: 'workload', name: 'Workload' }],
    ]);
    const all = (await visitor.get('/api/poll-suggestions?limit=10')).json<SuggestionsPage>();
    expect(all.suggestions.map((s) => s.topic?.slug ?? null)).toEqual([null, 'technology-and-ai', 'workload']);
    expect((await visitor.get('/api/poll-suggestions?limit=10&topic=nope')).statusCode).toBe(400);
  });
});
