#!/usr/bin/env node
/**
 * The PostgreSQL suite: every database-backed server test, on PostgreSQL only. Uses
 * TEST_DATABASE_URL, or the local server at postgres://127.0.0.1:5432/test. Fails (does not
 * skip) when the server cannot be reached.
 */
import { spawnSync } from 'node:child_process';

const url = process.env.TEST_DATABASE_URL || 'postgres://127.0.0.1:5432/test';
console.log(`PostgreSQL suite against ${url.replace(/\/\/[^@/]*@/, '//***@')}`);
const run = spawnSync('npx', ['vitest', 'run', '--project', 'server', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: url, TEST_DATABASES: 'postgres' },
});
process.exit(run.status ?? 1);
