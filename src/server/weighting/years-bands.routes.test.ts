/**
 * Years teaching across the change to NCES's bands (issue 38, item 4), end to end on each
 * database: a browser's answer from before keeps validating; polls answered with the old bands,
 * the new, or both, get their line raked on two bands or four; breakdowns by years show both.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Breakdown, PollResults } from '../../shared/api.js';
import { EMPTY_PROFILE, type Profile } from '../../shared/profile.js';
import { seedPoll, seedProfiledVotes } from '../testing/fixtures.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createTestClient, type TestClient } from '../testing/test-client.js';
import { testDatabaseKinds } from '../testing/test-database.js';
import { Visitor } from '../testing/visitor.js';

// Every draw in the middle: each breakdown count is published as its nearest multiple of 5.
vi.mock('../breakdowns/rounding-draw.js', () => ({ roundingDraw: () => 0.5 }));

let client: TestClient;
beforeAll(() => {
  client = createTestClient();
});
afterAll(() => client.remove());

const GRADES = ['elementary', 'middle', 'high', 'several'] as const;
const REGIONS = ['northeast', 'midwest', 'south', 'west'] as const;

/** `perCell` classroom teachers with this years answer in each grade level and region (16 cells); high-school teachers vote 3 to 1 for Yes, the others 1 to 3. */
function teachers(experience: Profile['experience'], perCell: number) {
  return GRADES.flatMap((gradeBand) =>
    REGIONS.map((region) => {
      const yes = gradeBand === 'high' ? Math.ceil((perCell * 3) / 4) : Math.floor(perCell / 4);
      return {
        profile: { role: 'classroom-teacher', gradeBand, region, experience } as const,
        votes: [yes, perCell - yes],
      };
    }),
  );
}

describe.each(testDatabaseKinds())('years teaching in NCES’s bands (%s)', (kind) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(kind, { clientDir: client.dir });
  });
  afterEach(() => t.close());
  const get = (url: string) => new Visitor(t.app).request({ method: 'GET', url });

  async function pastPoll(liveDate: string, groups: Parameters<typeof seedProfiledVotes>[2]) {
    const poll = await seedPoll(t.db, { options: ['Yes', 'No'], status: 'past', liveDate });
    await seedProfiledVotes(t.db, poll, groups);
    const results = (await get(`/api/polls/number/${poll.pollNumber}`)).json<PollResults>();
    const breakdown = (await get(`/api/polls/${poll.id}/breakdown`)).json<Breakdown>();
    return { weighted: results.weighted, years: breakdown.dimensions.find((d) => d.dimension === 'experience') };
  }

  it('keeps a browser’s answer given in a band no longer asked, and accepts the bands asked now', async () => {
    const visitor = new Visitor(t.app);
    // As a browser that answered before issue 38 stored it.
    expect((await visitor.put('/api/me/profile', { role: 'classroom-teacher', experience: '6-10' })).statusCode).toBe(
      200,
    );
    const changed = await visitor.put('/api/me/profile', { region: 'west' });
    expect(changed.json()).toEqual({ ...EMPTY_PROFILE, role: 'classroom-teacher', region: 'west', experience: '6-10' });
    expect((await visitor.put('/api/me/profile', { experience: '10-14' })).json()).toMatchObject({
      experience: '10-14',
    });
    expect((await visitor.put('/api/me/profile', { experience: '5-8' })).statusCode).toBe(400);
  });

  it('old answers alone: raked on 3 or less / 4 or more, every vote in scope, each old band its own group', async () => {
    const { weighted, years } = await pastPoll('2026-11-10', [
      ...teachers('0-2', 4),
      ...teachers('6-10', 4),
      ...teachers('11-20', 2),
    ]);
    expect(weighted).toMatchObject({ votesInScope: 160, yearsBands: 2 });
    expect(years?.groups.map((group) => [group.value, group.label, group.totalVotes])).toEqual([
      ['0-2', '0–2 years (earlier question)', 65],
      ['6-10', '6–10 years (earlier question)', 65],
      ['11-20', '11–20 years (earlier question)', 30],
    ]);
  });

  it('new answers alone: raked on NCES’s four bands', async () => {
    const { weighted, years } = await pastPoll('2026-11-11', [
      ...teachers('1-3', 2),
      ...teachers('4-9', 2),
      ...teachers('10-14', 2),
      ...teachers('15-plus', 3),
    ]);
    expect(weighted).toMatchObject({ votesInScope: 144, yearsBands: 4 });
    expect(years?.groups.map((group) => group.label)).toEqual(['1–3 years', '4–9 years', '10–14 years', '15+ years']);
  });

  it('mixed: four bands once each holds 20 votes; old answers stay in scope; groups under 10 never shown', async () => {
    const mixed = [...teachers('1-3', 2), ...teachers('4-9', 2), ...teachers('15-plus', 2), ...teachers('11-20', 3)];
    // 10–14: 16 new answers, short of 20, so two bands; the same with 4 more, four.
    const tenToFourteen = (perCell: number) => teachers('10-14', perCell);
    const short = await pastPoll('2026-11-12', [...mixed, ...tenToFourteen(1)]);
    expect(short.weighted).toMatchObject({ votesInScope: 160, yearsBands: 2 });
    const enough = await pastPoll('2026-11-13', [
      ...mixed,
      ...tenToFourteen(1),
      {
        profile: { role: 'classroom-teacher', gradeBand: 'middle', region: 'south', experience: '10-14' },
        votes: [1, 3],
      },
      // Six teachers who answered 21+ before: a group too small to show, in scope all the same (15 or more).
      {
        profile: { role: 'classroom-teacher', gradeBand: 'high', region: 'west', experience: '21-plus' },
        votes: [3, 3],
      },
    ]);
    expect(enough.weighted).toMatchObject({ votesInScope: 170, yearsBands: 4 });
    // The six are withheld, and so is the smallest group shown, lest the six be worked out by subtraction.
    expect(enough.years?.groups.map((group) => group.value)).toEqual(['1-3', '4-9', '15-plus', '11-20']);
    expect(enough.years?.alsoWithheld).toMatchObject({ value: '10-14', label: '10–14 years' });
    expect(enough.years?.withheldVotes).toBe(5); // the six, rounded to 5 as every count of a breakdown
  });
});
