/**
 * Writes openapi.json, the API document as the app generates it (`npm run openapi`), or with
 * `--check` (run by `npm run check`) fails when the committed file differs from it: every change
 * to the API then shows in review. The app is built on an in-memory database with every optional
 * route on (METRICS_TOKEN), as GET /openapi.json answers on a site with /metrics.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';

export const OPENAPI_FILE = path.resolve(import.meta.dirname, '../openapi.json');

const config = loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent', METRICS_TOKEN: 'a-metrics-token-of-20' });
const app = await buildApp({ config, announceAdminPassword: () => {} });
const response = await app.inject({ method: 'GET', url: '/openapi.json' });
await app.close();
const generated = `${JSON.stringify(JSON.parse(response.body), null, 2)}\n`;

if (process.argv.includes('--check')) {
  const committed = fs.existsSync(OPENAPI_FILE) ? fs.readFileSync(OPENAPI_FILE, 'utf8') : '';
  if (committed !== generated) {
    console.error('openapi.json differs from the API the code describes: run `npm run openapi` and commit it.');
    process.exit(1);
  }
} else {
  fs.writeFileSync(OPENAPI_FILE, generated);
  console.log(`Wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
}
