/**
 * `npm run demo`: the site on its own SQLite file (data/demo.sqlite), refilled on every run
 * with a believable set of polls, votes and suggestions dated around today.
 */
import fs from 'node:fs';
import path from 'node:path';
import { systemClock } from '../clock.js';
import { openDatabase } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { seedDemo } from '../demo/seed.js';
import { readConfigOrExit, startServer } from '../server.js';

const DEMO_DATABASE = path.resolve('data', 'demo.sqlite');

/** The demo's owner, made at start like a scripted install's (ADMIN_EMAIL), unless .env names one. */
const DEMO_OWNER = { email: 'owner@demo.example', password: 'demo owner sign-in 2026' };
const owner = process.env.ADMIN_EMAIL
  ? { email: process.env.ADMIN_EMAIL, password: process.env.ADMIN_PASSWORD ?? '' }
  : DEMO_OWNER;

const config = readConfigOrExit({
  ...process.env,
  DATABASE_URL: DEMO_DATABASE,
  ADMIN_EMAIL: owner.email,
  ADMIN_PASSWORD: owner.password,
});
for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${DEMO_DATABASE}${suffix}`, { force: true });

const db = openDatabase(config.database);
await migrateToLatest(db);
const summary = await seedDemo(db, systemClock.now(), config.site);
console.log(
  `Demo data in ${path.relative(process.cwd(), DEMO_DATABASE)}: ${summary.polls} polls, ${summary.votes} votes.`,
);

await startServer(config, { db });
console.log(`Open ${config.site.publicUrl}`);
console.log(
  `Staff: ${config.site.publicUrl}/admin, signed in as the owner ${owner.email} with the password "${owner.password}".`,
);
