import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchResults } from '../../shared/api.js';
import { searchTerms } from '../../shared/topics.js';
import { indexPollText } from '../db/search-index.js';
import { setPollTopics, topicIdsOf } from '../polls/poll-topics.repository.js';
import { seedPoll } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { splitMarks } from './search.repository.js';

describe('searchTerms and splitMarks', () => {
  it('reads only words: FTS syntax, quotes, NUL and emoji only separate them', () => {
    expect(searchTerms('"phones" OR NEAR(ban* -class) col:x ^y \u0000 😀 Phones')).toEqual([
      'phones',
      'or',
      'near',
      'ban',
      'class',
      'col',
      'x',
      'y',
    ]);
    expect(searchTerms('😀 ** "" \u0000')).toEqual([]);
    expect(searchTerms('élève naïve')).toEqual(['élève', 'naïve']);
  });

  it('splits marked text into plain and matched parts, whatever the marks left over', () => {
    expect(splitMarks('Ban \u0002phones\u0003 in \u0002class\u0003')).toEqual(['Ban ', 'phones', ' in ', 'class', '']);
    expect(splitMarks('no marks')).toEqual(['no marks']);
    expect(splitMarks('a \u0002b')).toEqual(['a b']);
  });
});

describe.each(testDatabaseKinds())('search over past polls (%s)', (kind) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(kind);
  });
  afterEach(() => t.close());

  const api = async (query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/search?${query}` });
    return { status: response.statusCode, body: response.json<SearchResults>() };
  };
  const questions = (found: SearchResults) => found.results.map((hit) => hit.question.join(''));

  async function seedArchive() {
    const inQuestion = await seedPoll(t.db, {
      question: 'Should phones be banned in class?',
      liveDate: '2026-10-01',
      status: 'past',
      votes: [3, 1, 0],
    });
    const inDescription = await seedPoll(t.db, {
      question: 'Is break time long enough?',
      description: 'Many schools now collect the phone at the door.',
      liveDate: '2026-10-02',
      status: 'past',
    });
    const lastYear = await seedPoll(t.db, {
      question: 'Do phones help with homework?',
      liveDate: '2025-05-02',
      status: 'past',
    });
    await seedPoll(t.db, { question: 'Phones at lunch: allowed?', liveDate: '2026-11-21', status: 'active' });
    await seedPoll(t.db, { question: 'Phones in the staff room?', liveDate: '2026-11-30', status: 'scheduled' });
    return { inQuestion, inDescription, lastYear };
  }

  it('ranks a match in the question above one in the description, stems words, and finds only past polls', async () => {
    await seedArchive();
    const { status, body } = await api('q=phones');
    expect(status).toBe(200);
    expect(body.terms).toEqual(['phones']);
    expect(body.total).toBe(3);
    // Both matches in a question first (each database orders those two by its own measure), then the description's.
    expect(questions(body).slice(0, 2).sort()).toEqual([
      'Do phones help with homework?',
      'Should phones be banned in class?',
    ]);
    expect(questions(body)[2]).toBe('Is break time long enough?');
    // Today's and upcoming polls are never found, however well they match.
    expect(JSON.stringify(body)).not.toMatch(/lunch|staff room/);
  });

  it('marks the matched words, "phone" for "phones" too, in the question and the description', async () => {
    await seedArchive();
    const { body } = await api('q=phones');
    const first = body.results.find((hit) => hit.question.join('').startsWith('Should'));
    const third = body.results[2];
    expect(first?.question).toEqual(['Should ', 'phones', ' be banned in class?']);
    expect(first?.totalVotes).toBe(4);
    expect(third?.question).toEqual(['Is break time long enough?']);
    expect(third?.description).toEqual(['Many schools now collect the ', 'phone', ' at the door.']);
  });

  it('needs every word, and filters by year and by topic', async () => {
    const { inQuestion, lastYear } = await seedArchive();
    expect(questions((await api('q=phones+banned')).body)).toEqual(['Should phones be banned in class?']);
    expect(questions((await api('q=phones&year=2025')).body)).toEqual(['Do phones help with homework?']);
    const ids = (await topicIdsOf(t.db, ['technology-and-ai'])) ?? [];
    await setPollTopics(t.db, lastYear.id, ids);
    const byTopic = (await api('q=phones&topic=technology-and-ai')).body;
    expect(questions(byTopic)).toEqual(['Do phones help with homework?']);
    expect(byTopic.results[0]?.topics).toEqual([{ slug: 'technology-and-ai', name: 'Technology and AI' }]);
    expect(byTopic.topic).toEqual({ slug: 'technology-and-ai', name: 'Technology and AI' });
    expect((await api('q=phones&topic=no-such-topic')).status).toBe(400);
    expect(inQuestion.id).toBeGreaterThan(0);
  });

  it('finds a staff note once it is indexed, ranked below the question, and follows edits', async () => {
    const { inDescription } = await seedArchive();
    await indexPollText(t.db, inDescription.id, { note: 'Teachers said <b>detentions</b> rose.' });
    const found = (await api('q=detentions')).body;
    expect(found.results.map((hit) => hit.note)).toEqual([['Teachers said <b>', 'detentions', '</b> rose.']]);
    // Left out, the question and description stay as indexed.
    expect(found.results[0]?.question).toEqual(['Is break time long enough?']);
    await seedPoll(t.db, { question: 'Have detentions stopped working?', liveDate: '2026-09-01', status: 'past' });
    expect(questions((await api('q=detentions')).body)).toEqual([
      'Have detentions stopped working?',
      'Is break time long enough?',
    ]);
    await indexPollText(t.db, inDescription.id, { note: null });
    expect(questions((await api('q=detentions')).body)).toEqual(['Have detentions stopped working?']);
  });

  it('follows a poll edited by staff, and forgets a deleted one', async () => {
    const { inQuestion } = await seedArchive();
    await t.db.transaction().execute(async (trx) => {
      const { updatePoll } = await import('../polls/polls.repository.js');
      await updatePoll(
        trx,
        inQuestion.id,
        { question: 'Should tablets be banned in class?', description: null, liveDate: '2026-10-01' },
        new Date(),
      );
    });
    expect((await api('q=tablets')).body.total).toBe(1);
    expect(questions((await api('q=phones')).body)).not.toContain('Should phones be banned in class?');
    await t.db.deleteFrom('polls').where('id', '=', inQuestion.id).execute();
    expect((await api('q=tablets')).body.total).toBe(0);
  });

  it('pages the results, 20 at a time', async () => {
    for (let i = 1; i <= 23; i += 1) {
      await seedPoll(t.db, {
        question: `Marking load, poll ${i}?`,
        liveDate: `2026-09-${String(i).padStart(2, '0')}`,
        status: 'past',
      });
    }
    const first = (await api('q=marking')).body;
    const second = (await api('q=marking&page=2')).body;
    expect([first.total, first.results.length, second.results.length]).toEqual([23, 20, 3]);
    expect(new Set([...questions(first), ...questions(second)]).size).toBe(23);
  });

  it('answers hostile queries with results or a clear 400, never a 500, on the page and the API', async () => {
    await seedArchive();
    const hostile = [
      'q=%22',
      "q='",
      'q=%22phones',
      'q=phones*',
      'q=NEAR(phones%20class)',
      'q=phones%20OR%20class',
      'q=phones%20AND%20NOT',
      'q=-phones',
      'q=question:phones',
      'q=%5E%7B%7D%5B%5D()',
      'q=%00',
      'q=phones%00banned',
      'q=%F0%9F%98%80%F0%9F%93%B1',
      'q=%3Cscript%3Ealert(1)%3C/script%3E',
      'q=a&q=b',
      'q[]=phones',
      'q=phones&year=20x6',
      'q=phones&year=99999',
      'q=phones&page=0',
      'q=phones&page=999',
      'q=phones&topic=../../etc',
      'q=phones&topic=' + 'a'.repeat(300),
      `q=${'phones '.repeat(1500)}`,
      `q=${'x'.repeat(10_240)}`,
      'q=%E2%80%AE%ED%A0%80',
      'q=%FF%FE',
    ];
    for (const query of hostile) {
      for (const path of ['/api/search', '/search']) {
        const response = await t.app.inject({ method: 'GET', url: `${path}?${query}` });
        expect([200, 400], `${path}?${query.slice(0, 60)}`).toContain(response.statusCode);
        if (path === '/api/search' && response.statusCode === 400) {
          expect(response.json()).toMatchObject({ message: expect.any(String), code: expect.any(String) });
        }
        if (path === '/search') expect(response.headers['content-type']).toMatch(/text\/html/);
      }
    }
    const long = await t.app.inject({ method: 'GET', url: `/api/search?q=${'x'.repeat(10_240)}` });
    expect(long.json().message).toBe('A search can be at most 200 characters.');
    const emoji = await api('q=%F0%9F%98%80');
    expect(emoji).toMatchObject({ status: 200, body: { terms: [], total: 0, results: [] } });
  });

  it('draws the results page without scripts: a GET form, escaped text, matched words in <mark>', async () => {
    await seedPoll(t.db, {
      question: 'Are <script>alert(1)</script> phones & tablets "fine"?',
      liveDate: '2026-10-05',
      status: 'past',
    });
    const response = await t.app.inject({ method: 'GET', url: '/search?q=phones&year=2026' });
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain('<form class="search card" method="get" action="/search" role="search">');
    expect(html).toContain('value="phones"');
    expect(html).toContain('<option value="2026" selected>2026</option>');
    expect(html).toContain(
      'Are &lt;script&gt;alert(1)&lt;/script&gt; <mark>phones</mark> &amp; tablets &quot;fine&quot;?',
    );
    expect(html).not.toContain('<script>');
    // The app's frame: its header, its footer's links, its bottom navigation with Results current.
    expect(html).toContain('class="site-header__logo"');
    expect(html).toContain('<a href="/terms">Terms of Service</a>');
    expect(html).toMatch(/<a href="\/\?view=archive" class="bottom-nav__tab" aria-current="true">/);
    expect(html).toContain('1 past poll matches “phones” in 2026.');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    // A query with no words at all shows the form and the topics to browse.
    const empty = await t.app.inject({ method: 'GET', url: '/search' });
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('<a href="/topics/workload">Workload (0)</a>');
    const refused = await t.app.inject({ method: 'GET', url: `/search?q=${'x'.repeat(300)}` });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('A search can be at most 200 characters.');
  });
});
