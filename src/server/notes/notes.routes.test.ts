/**
 * Staff notes through the API: an editor writes a closed poll's "What we learned", audited in
 * the same transaction; readers get it rendered (a safe subset) with the poll, in the open data
 * and the feed; hostile and oversized bodies are refused or made harmless.
 */
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchResults } from '../../shared/api.js';
import { NOTE_MAX_LENGTH } from '../../shared/limits.js';
import { pastPollDescription } from '../../shared/page-head.js';
import { seedPoll } from '../testing/fixtures.js';
import { signedInStaff } from '../testing/staff.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

describe.each(testDatabaseKinds())('staff notes (%s)', (kind) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(kind);
  });
  afterEach(() => t.close());

  const pastPoll = () => seedPoll(t.db, { liveDate: '2026-11-20', status: 'past', votes: [7, 3, 1] });
  const auditRows = () =>
    t.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'summary', 'actor_role'])
      .where('action', '=', 'poll.note')
      .execute();

  it('an editor publishes a note: audited, shown with the poll, its date, the open data and the feed', async () => {
    const poll = await pastPoll();
    const { visitor } = await signedInStaff(t, 'editor');
    t.clock.set(newYorkTime('2026-11-21', '09:30'));
    const body = 'Most said *yes*. See [how we adjust](/methods).';
    const saved = await visitor.put(`/api/admin/polls/${poll.id}/note`, { body });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ message: 'Note published.' });
    expect(await auditRows()).toEqual([
      {
        action: 'poll.note',
        target: `poll ${poll.id}`,
        summary: `Wrote the note (${body.length} characters)`,
        actor_role: 'editor',
      },
    ]);

    const read = await new Visitor(t.app).get(`/api/polls/number/${poll.pollNumber}`);
    const note = read.json().note;
    expect(note).toEqual({
      html: '<p>Most said <em>yes</em>. See <a href="/methods" rel="nofollow ugc noopener noreferrer">how we adjust</a>.</p>',
      text: 'Most said yes. See how we adjust.',
      updatedAt: newYorkTime('2026-11-21', '09:30').toISOString(),
    });
    expect(pastPollDescription(read.json())).toMatch(
      /^What we learned: Most said yes\. See how we adjust\. Final results: 11 votes\./,
    );

    t.clock.advance(2_000); // open data is read again after a second
    const data = await new Visitor(t.app).get('/data/polls.json');
    expect(data.json().polls[0].note).toEqual(note);
    const feed = await new Visitor(t.app).get('/feed.xml');
    expect(feed.body).toContain('&lt;h3&gt;What we learned&lt;/h3&gt;&lt;p&gt;Most said &lt;em&gt;yes&lt;/em&gt;');

    // The same text again changes nothing and writes no audit row; an empty one removes it.
    expect((await visitor.put(`/api/admin/polls/${poll.id}/note`, { body })).json()).toEqual({
      message: 'Nothing changed.',
    });
    expect((await visitor.put(`/api/admin/polls/${poll.id}/note`, { body: '  ' })).json()).toEqual({
      message: 'Note removed.',
    });
    expect((await new Visitor(t.app).get(`/api/polls/number/${poll.pollNumber}`)).json().note).toBeNull();
    expect(await auditRows()).toHaveLength(2);
  });

  it("makes the note's words searchable when it is published, and unsearchable when it is removed", async () => {
    const poll = await pastPoll();
    const { visitor } = await signedInStaff(t, 'editor');
    const found = async () =>
      (await new Visitor(t.app).get('/api/search?q=timetabling'))
        .json<SearchResults>()
        .results.map((hit) => hit.pollNumber);
    expect(await found()).toEqual([]);
    await visitor.put(`/api/admin/polls/${poll.id}/note`, { body: 'Timetabling came up in half the comments.' });
    expect(await found()).toEqual([poll.pollNumber]);
    await visitor.put(`/api/admin/polls/${poll.id}/note`, { body: '' });
    expect(await found()).toEqual([]);
  });

  it('stores hostile Markdown as typed and serves it harmless', async () => {
    const poll = await pastPoll();
    const { visitor } = await signedInStaff(t, 'editor');
    const body = '<script>alert(1)</script> [x](javascript:alert(1)) [y](https://a.example/" onclick="alert(1))';
    expect((await visitor.put(`/api/admin/polls/${poll.id}/note`, { body })).statusCode).toBe(200);
    const stored = await t.db.selectFrom('poll_notes').select('body').executeTakeFirstOrThrow();
    expect(stored.body).toBe(body);
    const { html } = (await new Visitor(t.app).get(`/api/polls/number/${poll.pollNumber}`)).json().note;
    expect(html).not.toMatch(/<script|href="javascript:|<[^>"]*\sonclick=/i);
    expect(html).toContain('&lt;script&gt;');
  });

  it('puts the note in the CSV as one text cell: quotes and commas kept, line breaks as spaces, a formula neutralised', async () => {
    const poll = await pastPoll();
    const { visitor } = await signedInStaff(t, 'editor');
    t.clock.set(newYorkTime('2026-11-21', '09:30'));
    const body = '=HYPERLINK("https://evil.example/?a,b","Open")\r\n\nThey said "no",\nthen\r"yes".';
    expect((await visitor.put(`/api/admin/polls/${poll.id}/note`, { body })).statusCode).toBe(200);
    t.clock.advance(2_000); // open data is read again after a second
    const csv = (await new Visitor(t.app).get('/data/polls.csv')).body;
    const parsed = Papa.parse<Record<string, string>>(csv, { header: true, comments: '#', skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const rows = parsed.data.filter((row) => row.poll_number === String(poll.pollNumber));
    expect(rows.length).toBeGreaterThan(3);
    // Every row of the poll, the same cell: the plain text readers get, a leading apostrophe so
    // that a spreadsheet shows it rather than running it, and nothing spilling into other columns.
    const { text } = (await new Visitor(t.app).get(`/api/polls/number/${poll.pollNumber}`)).json<{
      note: { text: string };
    }>().note;
    expect(text).toMatch(/^=HYPERLINK\("https:\/\/evil\.example\/\?a,b","Open"\) They said "no", then "yes"\.$/);
    for (const row of rows) {
      expect(row.note).toBe(`'${text}`);
      expect(row.note_updated_at).toBe(newYorkTime('2026-11-21', '09:30').toISOString());
      expect(row.option_index).toMatch(/^\d*$/);
    }
    expect(csv).toContain(`"'${text.replaceAll('"', '""')}"`);

    // A poll without a note: both cells empty.
    await visitor.put(`/api/admin/polls/${poll.id}/note`, { body: '' });
    t.clock.advance(2_000);
    const after = Papa.parse<Record<string, string>>((await new Visitor(t.app).get('/data/polls.csv')).body, {
      header: true,
      comments: '#',
      skipEmptyLines: true,
    }).data;
    expect(new Set(after.map((row) => `${row.note}|${row.note_updated_at}`))).toEqual(new Set(['|']));
  });

  it('refuses a note over the limit, a 100 KB body and a NUL with 400 and changes nothing', async () => {
    const poll = await pastPoll();
    const { visitor } = await signedInStaff(t, 'editor');
    for (const [body, status] of [
      ['x'.repeat(NOTE_MAX_LENGTH + 1), 400],
      ['y'.repeat(100 * 1024), 413], // 100 KB, past the API's 16 KB body limit: refused before it is parsed
      ['a\u0000b', 400],
      [42, 400],
    ] as const) {
      const response = await visitor.put(`/api/admin/polls/${poll.id}/note`, { body });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    expect(await t.db.selectFrom('poll_notes').selectAll().execute()).toEqual([]);
    expect(await auditRows()).toEqual([]);
  });

  it('waits for the close: today’s poll before 20:00 is 409, after it the note is taken', async () => {
    const today = await seedPoll(t.db, { liveDate: '2026-11-21', status: 'active', votes: [1, 1, 0] });
    t.clock.set(newYorkTime('2026-11-21', '19:50'));
    const { visitor } = await signedInStaff(t, 'editor');
    const early = await visitor.put(`/api/admin/polls/${today.id}/note`, { body: 'Too soon' });
    expect(early.statusCode).toBe(409);
    expect((await visitor.get(`/api/admin/polls/${today.id}/note`)).json()).toEqual({
      body: '',
      updatedAt: null,
      writable: false,
    });
    t.clock.set(newYorkTime('2026-11-21', '20:05'));
    expect((await visitor.put(`/api/admin/polls/${today.id}/note`, { body: 'Now' })).statusCode).toBe(200);
    expect((await visitor.put('/api/admin/polls/99999/note', { body: 'x' })).statusCode).toBe(404);
  });

  it('is staff-only: 401 without a session, 403 for a moderator, 403 from another site', async () => {
    const poll = await pastPoll();
    expect(
      (
        await new Visitor(t.app, { origin: t.config.site.publicUrl }).put(`/api/admin/polls/${poll.id}/note`, {
          body: 'x',
        })
      ).statusCode,
    ).toBe(401);
    const { visitor } = await signedInStaff(t, 'moderator');
    expect((await visitor.put(`/api/admin/polls/${poll.id}/note`, { body: 'x' })).statusCode).toBe(403);
    const editor = await signedInStaff(t, 'editor');
    const foreign = await editor.visitor.request({
      method: 'PUT',
      url: `/api/admin/polls/${poll.id}/note`,
      payload: { body: 'x' },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(await t.db.selectFrom('poll_notes').selectAll().execute()).toEqual([]);
  });
});
