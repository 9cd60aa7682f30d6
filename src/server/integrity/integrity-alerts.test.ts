/**
 * Issue 37 item 5: the first challenge or surge on a poll e-mails its owners and editors through
 * the outbox, once per poll and hour, with a link to the poll's integrity view; sent over SMTP to
 * a real mail server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { seedPoll } from '../testing/fixtures.js';
import { signedInStaff } from '../testing/staff.js';
import { createTestAppWithMail, TEST_ADMIN_EMAIL, type MailTestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { testDatabaseKinds } from '../testing/test-database.js';

const env = { RATE_LIMIT_WRITES_PER_MINUTE: '0' };

describe.each(testDatabaseKinds())('staff are told of a challenge (%s)', (kind) => {
  let t: MailTestApp;
  afterEach(() => t.close());

  /** A naive flood from one /24: 120 votes without cookie nor page, 10 a second. */
  async function flood(pollId: number, network: string) {
    for (let i = 0; i < 120; i += 1) {
      t.clock.advance(100);
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/polls/${pollId}/vote`,
        payload: { optionIndex: 0 },
        remoteAddress: `${network}.7`,
      });
      expect(response.statusCode).toBe(201);
    }
  }

  it('mails each owner and editor once per poll and hour, with the integrity view’s link; never a moderator', async () => {
    t = await createTestAppWithMail(kind, { env, now: newYorkTime('2026-11-21', '10:00') });
    const editor = await signedInStaff(t, 'editor');
    const moderator = await signedInStaff(t, 'moderator');
    const poll = await seedPoll(t.db, { question: 'Homework on weekends?', options: ['Yes', 'No'], votes: [150, 150] });
    const alerts = () =>
      t.smtp.delivered.filter((mail) => mail.parsed.subject === 'Votes on "Homework on weekends?" need a look');

    await t.app.jobs.tick();
    expect(alerts()).toEqual([]);
    await flood(poll.id, '198.51.100');
    await t.app.jobs.tick();
    expect(
      alerts()
        .map((mail) => mail.to[0])
        .sort(),
    ).toEqual([editor.email, TEST_ADMIN_EMAIL].sort());
    expect(t.smtp.to(moderator.email)).toEqual([]);
    const text = alerts()[0]?.parsed.text ?? '';
    expect(text).toContain(`${t.config.site.publicUrl}/admin/polls/${poll.pollNumber}/integrity`);
    expect(text).toContain('from one network');

    // A second network challenged in the same hour: nobody is mailed again.
    await flood(poll.id, '192.0.2');
    await t.app.jobs.tick();
    expect(alerts()).toHaveLength(2);

    // An hour later, a new challenge is news again.
    t.clock.advance(60 * 60_000);
    await flood(poll.id, '203.0.113');
    await t.app.jobs.tick();
    expect(alerts()).toHaveLength(4);
  }, 120_000);
});
