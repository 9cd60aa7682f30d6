#!/usr/bin/env node
/**
 * The PostgreSQL suite: every database-backed server test, on PostgreSQL only. Uses
 * TEST_DATABASE_URL, or the local server at postgres://127.0.0.1:5432/test. Fails (does not
 * skip) when the server cannot be reached.
 *
 * Only the files that ask `testDatabaseKinds()` which databases to run on are run: the others
 * (pure logic, SQLite-only crash tests, documents) do the same work on either setting and have
 * already run in `npm test`. Running them twice cost CI minutes and proved nothing more. Extra
 * arguments go to Vitest (a file filter replaces the list).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const url = process.env.TEST_DATABASE_URL || 'postgres://127.0.0.1:5432/test';
console.log(`PostgreSQL suite against ${url.replace(/\/\/[^@/]*@/, '//***@')}`);

const args = process.argv.slice(2);
const files = args.some((arg) => !arg.startsWith('-')) ? [] : databaseTestFiles('src/server');
console.log(`${files.length || 'the named'} test files ask which databases to run on`);
const run = spawnSync('npx', ['vitest', 'run', '--project', 'server', ...files, ...args], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: url, TEST_DATABASES: 'postgres' },
});
process.exit(run.status ?? 1);

/** Server test files (Redis tests aside) that call testDatabaseKinds(). */
function databaseTestFiles(dir) {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts') && !entry.name.endsWith('.redis.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => fs.readFileSync(file, 'utf8').includes('testDatabaseKinds'))
    .sort();
}
