import { DOMParser, type Element } from '@xmldom/xmldom';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NONE_IN_SCOPE, roleDimension, shownGroup } from '../testing/breakdowns.js';
import { insertSetAsideVotes, seedPoll, seedProfiledVotes } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';
import { PAST_POLLS_VERSION_MAX_AGE_MS } from './open-data.service.js';

// Every draw in the middle: each breakdown count is published as its nearest multiple of 5.
vi.mock('../breakdowns/rounding-draw.js', () => ({ roundingDraw: () => 0.5 }));

const LICENSE_URL = 'https://creativecommons.org/licenses/by/4.0/';
const ATOM = 'http://www.w3.org/2005/Atom';

/** The feed as a namespace-aware XML parser reads it; any well-formedness error fails the test. */
function parseAtom(text: string) {
  const document = new DOMParser({
    onError: (level, message) => {
      throw new Error(`XML ${level}: ${message}`);
    },
  }).parseFromString(text, 'application/xml');
  const feed = document.documentElement;
  if (!feed) throw new Error('no root element');
  return feed;
}

/** The elements named `name` in the Atom namespace directly inside `parent`. */
const children = (parent: Element, name: string) =>
  Array.from(parent.childNodes).filter(
    (node): node is Element =>
      node.nodeType === 1 && (node as Element).namespaceURI === ATOM && (node as Element).localName === name,
  );
const text = (parent: Element, name: string) => children(parent, name)[0]?.textContent ?? undefined;
const links = (parent: Element) =>
  children(parent, 'link').map((link) => ({
    rel: link.getAttribute('rel'),
    type: link.getAttribute('type'),
    href: link.getAttribute('href'),
  }));

interface OpenPollJson {
  pollNumber: number;
  question: string;
  description: string | null;
  totalVotes: number;
  setAsideVotes: number;
  closedAt: string;
  breakdowns: { dimension: string }[];
}

describe.each(testDatabaseKinds())('open data (%s)', (kind) => {
  let t: TestApp;
  const publicUrl = 'https://hottake.example.org';

  beforeEach(async () => {
    t = await createTestApp(kind, { env: { PUBLIC_URL: publicUrl, SITE_NAME: 'Teacher Hot Take' } });
  });
  afterEach(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    new Visitor(t.app).request({ method: 'GET', url: path, headers });

  /**
   * Two past polls (one with groups either side of the size rule, and 1,234 votes set aside after
   * review, held and discounted), today's, and a scheduled one.
   */
  async function seedPolls() {
    const first = await seedPoll(t.db, {
      question: 'Is "homework" <useful> & fair?',
      options: ['Yes', 'No', 'Not sure'],
      status: 'past',
      liveDate: '2026-11-19',
      votes: [1, 1, 1],
    });
    const second = await seedPoll(t.db, {
      question: 'Should phones be banned, in class?',
      description: 'Many districts did so this year.',
      options: ['Yes', 'No'],
      status: 'past',
      liveDate: '2026-11-20',
      votes: [0, 0],
    });
    await seedProfiledVotes(t.db, second, [
      { profile: { role: 'classroom-teacher', region: 'south' }, votes: [7, 3] },
      { profile: { role: 'school-leader', region: 'south' }, votes: [9, 0] },
    ]);
    await insertSetAsideVotes(t.db, second, 1200, 'held');
    await insertSetAsideVotes(t.db, second, 34, 'discounted');
    await seedPoll(t.db, { question: 'Today’s question, still open?', options: ['A', 'B'], votes: [4, 4] });
    await seedPoll(t.db, { question: 'Scheduled, not yet asked?', status: 'scheduled', liveDate: '2026-11-25' });
    return { first, second };
  }

  it('lists every past poll as JSON, with results, breakdowns under the group-size rule and the licence', async () => {
    await seedPolls();
    const response = await get('/data/polls.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers.link).toBe(`<${LICENSE_URL}>; rel="license"`);
    const data = response.json<{ license: unknown; minGroupSize: number; notes: string; polls: OpenPollJson[] }>();
    expect(data.license).toEqual({
      name: 'CC BY 4.0',
      title: 'Creative Commons Attribution 4.0 International',
      url: LICENSE_URL,
      attribution: `Teacher Hot Take (${publicUrl})`,
      notice: expect.stringContaining(`crediting "Teacher Hot Take" with a link to ${publicUrl}`),
    });
    expect(data.minGroupSize).toBe(10);
    expect(data.polls.map((p) => p.question)).toEqual([
      'Is "homework" <useful> & fair?',
      'Should phones be banned, in class?',
    ]);
    const [first, second] = data.polls;
    expect(first).toMatchObject({
      pollNumber: 1,
      date: '2026-11-19',
      url: `${publicUrl}/poll-1`,
      options: ['Yes', 'No', 'Not sure'],
      totalVotes: 3,
      setAsideVotes: 0,
      results: [
        { option: 'Yes', votes: 1, percentage: 34 },
        { option: 'No', votes: 1, percentage: 33 },
        { option: 'Not sure', votes: 1, percentage: 33 },
      ],
    });
    // Voting closed at 8 pm in New York, 01:00 UTC the next day.
    expect(first?.closedAt).toBe('2026-11-20T01:00:00.000Z');
    // The votes set aside are in no total, result or breakdown: only counted here, and said where to read why.
    expect(second?.totalVotes).toBe(19);
    expect(second?.setAsideVotes).toBe(1234);
    expect(data.notes).toContain('setAsideVotes counts the votes set aside after review');
    expect(data.notes).toContain(`${publicUrl}/faq#honest-results`);
    expect(second?.description).toBe('Many districts did so this year.');
    const role = second?.breakdowns.find((d) => d.dimension === 'role');
    // Nine school leaders: one short of a group that may be shown. Everyone less the teachers
    // would give their votes away, so the teachers are withheld too.
    expect(role).toEqual(
      roleDimension({
        groups: [],
        withheldVotes: 10, // 9, published as every count of a breakdown: rounded to 5
        notSaidVotes: 0,
        alsoWithheld: { value: 'classroom-teacher', label: 'Classroom teacher', totalVotes: 10 },
      }),
    );
    const region = second?.breakdowns.find((d) => d.dimension === 'region');
    expect(region).toMatchObject({
      groups: [shownGroup('south', 'South', { Yes: [15, 75], No: [5, 25] }, NONE_IN_SCOPE)],
      withheldVotes: 0,
      notSaidVotes: 0,
      alsoWithheld: null,
    });
    expect(JSON.stringify(data)).not.toContain('school-leader');
  });

  it('writes the same as CSV that papaparse reads, one row per poll, group and option, the licence first', async () => {
    await seedPolls();
    const response = await get('/data/polls.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    const text = response.body;
    expect(text.startsWith('\uFEFF# Poll results from Teacher Hot Take (https://hottake.example.org)')).toBe(true);
    expect(text.split('\r\n')[0]).toContain(`licensed under CC BY 4.0 (${LICENSE_URL})`);
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, comments: '#', skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([
      'poll_number',
      'date',
      'question',
      'dimension',
      'group',
      'group_label',
      'group_total_votes',
      'option_index',
      'option',
      'votes',
      'percentage',
      'set_aside_votes',
      'weighted_percentage',
      'weighted_votes_in_scope',
      'weighted_effective_sample',
      'weighted_withheld',
      'weighted_interval_low',
      'weighted_interval_high',
      'weighted_interval_design_effect',
      'note',
      'note_updated_at',
    ]);
    const rows = parsed.data;
    // Every row of a poll carries its votes set aside, as it carries its question.
    expect(new Set(rows.filter((row) => row.poll_number === '1').map((row) => row.set_aside_votes))).toEqual(
      new Set(['0']),
    );
    expect(new Set(rows.filter((row) => row.poll_number === '2').map((row) => row.set_aside_votes))).toEqual(
      new Set(['1234']),
    );
    const everyone = rows.filter((row) => row.dimension === 'all');
    expect(everyone.map((row) => [row.poll_number, row.question, row.option, row.votes, row.percentage])).toEqual([
      ['1', 'Is "homework" <useful> & fair?', 'Yes', '1', '34'],
      ['1', 'Is "homework" <useful> & fair?', 'No', '1', '33'],
      ['1', 'Is "homework" <useful> & fair?', 'Not sure', '1', '33'],
      ['2', 'Should phones be banned, in class?', 'Yes', '16', '84'],
      ['2', 'Should phones be banned, in class?', 'No', '3', '16'],
    ]);
    const dimension = (name: string) =>
      rows
        .filter((row) => row.poll_number === '2' && row.dimension === name)
        .map((row) => [row.group, row.group_label, row.group_total_votes, row.option, row.votes, row.percentage]);
    expect(dimension('region')).toEqual([
      ['south', 'South', '20', 'Yes', '15', '75'],
      ['south', 'South', '20', 'No', '5', '25'],
      ['withheld', 'Groups under 10 votes', '0', '', '', ''],
      ['not-said', 'Not said', '0', '', '', ''],
    ]);
    // The teachers are withheld so that the nine school leaders cannot be read by subtraction.
    expect(dimension('role')).toEqual([
      ['withheld', 'Groups under 10 votes', '10', '', '', ''],
      ['not-said', 'Not said', '0', '', '', ''],
      ['classroom-teacher', 'Classroom teacher', '10', '', '', ''],
    ]);
    expect(rows.some((row) => row.group === 'school-leader')).toBe(false);
    expect(rows.some((row) => row.question?.startsWith('Today'))).toBe(false);
  });

  it('publishes an Atom 1.0 feed of past polls, newest first, that an XML parser reads', async () => {
    await seedPolls();
    const response = await get('/feed.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const feed = parseAtom(response.body);
    expect(feed.namespaceURI).toBe(ATOM);
    expect(feed.localName).toBe('feed');
    expect(text(feed, 'id')).toBe(`${publicUrl}/`);
    expect(text(feed, 'title')).toBe('Teacher Hot Take: past polls');
    expect(text(feed, 'updated')).toBe('2026-11-21T01:00:00.000Z');
    expect(text(children(feed, 'author')[0] as Element, 'name')).toBe('Teacher Hot Take');
    expect(text(feed, 'rights')).toContain(`licensed under CC BY 4.0 (${LICENSE_URL})`);
    expect(links(feed)).toContainEqual({ rel: 'self', type: 'application/atom+xml', href: `${publicUrl}/feed.xml` });
    expect(links(feed)).toContainEqual({ rel: 'license', type: null, href: LICENSE_URL });
    const entries = children(feed, 'entry');
    expect(entries.map((entry) => text(entry, 'title'))).toEqual([
      'Poll #2: Should phones be banned, in class?',
      'Poll #1: Is "homework" <useful> & fair?',
    ]);
    const second = entries[0] as Element;
    expect(text(second, 'id')).toBe(`${publicUrl}/poll-2`);
    expect(links(second)).toEqual([{ rel: 'alternate', type: 'text/html', href: `${publicUrl}/poll-2` }]);
    expect(text(second, 'updated')).toBe('2026-11-21T01:00:00.000Z');
    expect(text(second, 'summary')).toBe(
      'November 20, 2026. Yes: 84%, No: 16% (19 votes; 1,234 votes set aside after review).',
    );
    const content = children(second, 'content')[0] as Element;
    expect(content.getAttribute('type')).toBe('html');
    expect(content.textContent).toContain('<li>Yes: 84% (16 votes)</li>');
    expect(content.textContent).toContain(
      `Total: 19 votes. <a href="${publicUrl}/faq#honest-results">1,234 votes set aside after review</a>.`,
    );
    // A poll with none set aside says nothing of it.
    const first = entries[1] as Element;
    expect(text(first, 'summary')).toBe('November 19, 2026. Yes: 34%, No: 33%, Not sure: 33% (3 votes).');
    expect(children(first, 'content')[0]?.textContent).not.toContain('set aside');
  });

  it('answers 304 to a client that has the current version, and a new ETag once another poll closes (within a second)', async () => {
    await seedPolls();
    for (const path of ['/data/polls.json', '/data/polls.csv', '/feed.xml']) {
      const first = await get(path);
      const etag = first.headers.etag;
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(first.headers['cache-control']).toBe('no-cache');
      const again = await get(path, { 'if-none-match': String(etag) });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const stale = await get(path, { 'if-none-match': '"something-else"' });
      expect(stale.statusCode).toBe(200);

      await seedPoll(t.db, {
        question: `Closed later, for ${path}?`,
        status: 'past',
        liveDate: '2026-11-18',
        votes: [1],
      });
      t.clock.advance(PAST_POLLS_VERSION_MAX_AGE_MS);
      const changed = await get(path, { 'if-none-match': String(etag) });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
    }
  });

  it('builds again when a past poll’s votes set aside change, though none of its counted votes did', async () => {
    const { first } = await seedPolls();
    for (const path of ['/data/polls.json', '/data/polls.csv', '/feed.xml']) {
      const before = await get(path);
      // A vote accepted just before the poll went past, written just after, and held.
      await insertSetAsideVotes(t.db, first, 1);
      t.clock.advance(PAST_POLLS_VERSION_MAX_AGE_MS);
      const after = await get(path, { 'if-none-match': String(before.headers.etag) });
      expect(after.statusCode, path).toBe(200);
      expect(after.headers.etag, path).not.toBe(before.headers.etag);
    }
    const data = (await get('/data/polls.json')).json<{ polls: OpenPollJson[] }>();
    expect(data.polls[0]).toMatchObject({ pollNumber: first.pollNumber, totalVotes: 3, setAsideVotes: 3 });
  });

  it('answers empty documents, still valid and licensed, before any poll has closed', async () => {
    expect((await get('/data/polls.json')).json<unknown>()).toMatchObject({
      polls: [],
      license: { name: 'CC BY 4.0' },
    });
    const feed = await get('/feed.xml');
    expect(text(parseAtom(feed.body), 'rights')).toContain('CC BY 4.0');
    expect(children(parseAtom(feed.body), 'entry')).toEqual([]);
    const csv = Papa.parse((await get('/data/polls.csv')).body, { header: true, comments: '#', skipEmptyLines: true });
    expect(csv.errors).toEqual([]);
    expect(csv.data).toEqual([]);
  });
});
