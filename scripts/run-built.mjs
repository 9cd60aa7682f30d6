#!/usr/bin/env node
/**
 * `npm start`, `npm run demo` and `npm run db:migrate` run the built server. This builds it
 * first when there is no build yet (a fresh clone) or a source changed since the last build,
 * and reads a `.env` file when there is one (variables already set win).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const entries = {
  start: 'dist/server/main.js',
  demo: 'dist/server/cli/demo.js',
  migrate: 'dist/server/cli/migrate.js',
  backup: 'dist/server/cli/backup.js',
  staff: 'dist/server/cli/staff.js',
  'verify-audit': 'dist/server/cli/verify-audit.js',
};
const command = process.argv[2];
const entry = entries[command];
if (!entry) {
  console.error(`usage: run-built.mjs ${Object.keys(entries).join('|')}`);
  process.exit(2);
}

const stamp = path.join(root, 'dist', '.build-stamp');
const buildInputs = [
  'src',
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'tsconfig.base.json',
  'tsconfig.server.json',
];

function newestChange(file) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(file)) newest = Math.max(newest, newestChange(path.join(file, name)));
  return newest;
}

const builtAt = fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const sourcesChanged = Math.max(...buildInputs.map((input) => newestChange(path.join(root, input)))) > builtAt;
if (sourcesChanged || !fs.existsSync(path.join(root, entry))) {
  console.log(
    builtAt === 0 ? 'Building the site (first start)...' : 'Sources changed since the last build: building...',
  );
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

const envFile = path.join(root, '.env');
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);

await import(pathToFileURL(path.join(root, entry)).href);
