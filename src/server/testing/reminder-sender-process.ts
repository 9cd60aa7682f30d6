/**
 * A server instance reduced to its reminder sender, as a separate process, for the test of a
 * sender killed between sending and recording. Arguments: the SQLite file and the instant its
 * clock stands at. The fake push service's certificate comes in through NODE_EXTRA_CA_CERTS.
 */
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';

const [file = '', instant = ''] = process.argv.slice(2);
const config = loadConfig({
  DATABASE_URL: file,
  ADMIN_PASSWORD: 'correct horse battery staple',
  SITE_TIMEZONE: 'America/New_York',
  PUSH_SERVICE_HOSTS: 'localhost',
  LOG_LEVEL: 'silent',
});
const app = await buildApp({ config, clock: { now: () => new Date(instant) } });
const result = await app.jobs.sendReminders();
process.stdout.write(`${JSON.stringify(result)}\n`);
await app.close();
