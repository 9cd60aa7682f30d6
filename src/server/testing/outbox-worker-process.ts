/**
 * A server instance reduced to its outbox worker, as a separate process, for the test of a
 * process killed while sending. Arguments: SQLite file, SMTP URL, and how far ahead of the real
 * time its clock runs (a restarted instance "later", without the test having to wait).
 */
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';

const [file = '', smtpUrl = '', aheadMs = '0'] = process.argv.slice(2);
const config = loadConfig({
  DATABASE_URL: file,
  SMTP_URL: smtpUrl,
  MAIL_POSTAL_ADDRESS: '1 School Lane',
  ADMIN_PASSWORD: 'correct horse battery staple',
  LOG_LEVEL: 'silent',
});
const app = await buildApp({ config, clock: { now: () => new Date(Date.now() + Number(aheadMs)) } });
const result = await app.jobs.sendMail();
process.stdout.write(`${JSON.stringify(result)}\n`);
await app.close();
