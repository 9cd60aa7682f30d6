/**
 * Reading a tracker (issue 38; `BENCH_ONLY=trackers`, or `npx tsx bench/bench-trackers.ts`):
 * GET /trackers/<slug> (the page, drawn on the server) and GET /data/trackers/<slug>.json (its
 * open data), for a series of 4 runs and one of 40, and the 4 runs again with every run's
 * tallies a thousand times larger (counts only: a tracker reads its runs' tallies, never their
 * votes), each against a bare node:http server answering the tracker's JSON, interleaved in
 * rounds as bench-pages.ts does. Ratios are medians of the rounds' ratios.
 * Targets: the 4-run tracker reads as fast with a thousand times the votes (ratio ≥ 0.85), and
 * the 40-run one at least half as fast as the 4-run one (its page draws ten times the points).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openDatabase } from '../src/server/db/connection.js';
import { linkToEarlierRun } from '../src/server/polls/polls.repository.js';
import { median } from '../src/shared/median.js';
import { addPastPolls, prepareDatabase } from './bench-data.js';
import { buildSite, measureRounds, start, stop, type RoundScenario } from './bench-pages.js';

export const SCALE_TARGET = 0.85;
export const LENGTH_TARGET = 0.5;

/** Links these past polls (oldest first) into one series, as staff would. */
async function linkSeries(file: string, ids: readonly number[]) {
  const db = openDatabase({ kind: 'sqlite', file });
  const seriesId = ids[0] ?? null;
  for (let i = 1; i < ids.length; i += 1) {
    await linkToEarlierRun(
      db,
      { id: ids[i] ?? 0, seriesId: null },
      { id: ids[i - 1] ?? 0, seriesId: i === 1 ? null : seriesId },
    );
  }
  await db.destroy();
}

export async function measureTrackers(work: string): Promise<boolean> {
  console.log('\nReading a tracker (page and open data), against bare JSON in the same run:');
  const clientDir = await buildSite(path.join(work, 'site'));
  const db = path.join(work, 'trackers.sqlite');
  await prepareDatabase(db, 1_000);
  await addPastPolls(db, 44);
  const sqlite = new BetterSqlite3(db);
  const past = sqlite.prepare("select id from polls where status = 'past' order by live_date").all() as {
    id: number;
  }[];
  sqlite.close();
  const ids = past.map((row) => row.id);
  await linkSeries(db, ids.slice(0, 40));
  await linkSeries(db, ids.slice(40, 44));

  // The same database, the 4-run series' tallies a thousand times larger.
  const large = path.join(work, 'trackers-large.sqlite');
  fs.copyFileSync(db, large);
  const scaled = new BetterSqlite3(large);
  const four = ids.slice(40, 44).join(', ');
  scaled.prepare(`update poll_options set vote_count = vote_count * 1000 where poll_id in (${four})`).run();
  scaled.prepare(`update poll_group_tallies set vote_count = vote_count * 1000 where poll_id in (${four})`).run();
  scaled.close();

  const app = await start('bench-page-server.ts', [db, clientDir]);
  let slugs: { four: string; forty: string };
  const bare = path.join(work, 'tracker.json');
  try {
    const list = (await (await fetch(`${app.url}/api/trackers`)).json()) as { slug: string; runs: unknown[] }[];
    const slugOf = (runs: number) => list.find((tracker) => tracker.runs.length === runs)?.slug ?? '';
    slugs = { four: slugOf(4), forty: slugOf(40) };
    if (!slugs.four || !slugs.forty) throw new Error(`no series of 4 and 40 runs: ${JSON.stringify(list)}`);
    fs.writeFileSync(bare, await (await fetch(`${app.url}/api/trackers/${slugs.four}`)).text());
    for (const slug of [slugs.four, slugs.forty]) {
      const page = await fetch(`${app.url}/trackers/${slug}`);
      if (page.status !== 200 || !(await page.text()).includes('tracker-chart')) throw new Error(`no page for ${slug}`);
    }
  } finally {
    await stop(app);
  }
  execFileSync('sync');

  const asBrowsers = { 'accept-encoding': 'gzip, deflate, br, zstd' };
  const site = (file: string, label: string, urlPath: string): RoundScenario => ({
    label,
    script: 'bench-page-server.ts',
    args: [file, clientDir],
    headers: asBrowsers,
    path: urlPath,
  });
  const label = {
    bare: 'bare node:http, a tracker as JSON',
    page4: 'app: tracker page, 4 runs',
    page4Large: 'app: tracker page, 4 runs, 1000x the votes',
    page40: 'app: tracker page, 40 runs',
    json4: 'app: tracker open data JSON, 4 runs',
    json4Large: 'app: tracker open data JSON, 4 runs, 1000x',
    json40: 'app: tracker open data JSON, 40 runs',
  };
  const scenarios: RoundScenario[] = [
    { label: label.bare, script: 'bench-server.ts', args: ['bare-json', bare], headers: {} },
    site(db, label.page4, `/trackers/${slugs.four}`),
    site(large, label.page4Large, `/trackers/${slugs.four}`),
    site(db, label.page40, `/trackers/${slugs.forty}`),
    site(db, label.json4, `/data/trackers/${slugs.four}.json`),
    site(large, label.json4Large, `/data/trackers/${slugs.four}.json`),
    site(db, label.json40, `/data/trackers/${slugs.forty}.json`),
  ];
  const { runs, bytes } = await measureRounds(scenarios);
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  for (const { label: name } of scenarios) {
    const rates = runs.get(name) ?? [];
    console.log(
      `  ${name.padEnd(48)} ${fmt(median(rates)).padStart(8)} req/s  (runs ${fmt(Math.min(...rates))}-${fmt(Math.max(...rates))}, ${fmt(bytes.get(name) ?? 0)} bytes each)`,
    );
  }
  /** The median over the rounds of a's rate over b's in the same round. */
  const ratioOf = (a: string, b: string) => {
    const bs = runs.get(b) ?? [];
    return median((runs.get(a) ?? []).map((rate, i) => rate / (bs[i] ?? Number.NaN)));
  };
  let met = true;
  const report = (name: string, value: number, target: number | null) => {
    const verdict =
      target === null ? '(for information)' : `target >= ${target.toFixed(2)}   ${value >= target ? 'met' : 'MISSED'}`;
    if (target !== null) met &&= value >= target;
    console.log(`  ${name.padEnd(60)} ${value.toFixed(2).padStart(6)}   ${verdict}`);
  };
  for (const name of [label.page4, label.page40, label.json4, label.json40]) {
    report(`${name.slice(5)} / bare JSON`, ratioOf(name, label.bare), null);
  }
  report('page, 4 runs: 1000x the votes / as many', ratioOf(label.page4Large, label.page4), SCALE_TARGET);
  report('open data, 4 runs: 1000x the votes / as many', ratioOf(label.json4Large, label.json4), SCALE_TARGET);
  report('page: 40 runs / 4 runs', ratioOf(label.page40, label.page4), LENGTH_TARGET);
  report('open data: 40 runs / 4 runs', ratioOf(label.json40, label.json4), LENGTH_TARGET);
  console.log(
    `  (load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})`,
  );
  return met;
}

// `tsx bench/bench-trackers.ts` measures the trackers alone.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-bench-trackers-'));
  try {
    process.exitCode = (await measureTrackers(work)) ? 0 : 1;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
