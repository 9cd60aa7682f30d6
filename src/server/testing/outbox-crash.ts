/**
 * For tests that kill an outbox sender mid-batch (email/outbox-crash.test.ts, the weekly
 * digest's digest/digest-crash.test.ts): an app on a SQLite file of its own with a real SMTP
 * server, senders run as processes of their own (outbox-worker-process.ts) on that file, one
 * killed while the mail server has not answered, then others run later.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_OUTBOX_SETTINGS } from '../email/outbox.worker.js';
import { SmtpTestServer } from './smtp-test-server.js';
import { createTestApp, type TestApp } from './test-app.js';

const WORKER = path.resolve(import.meta.dirname, 'outbox-worker-process.ts');
const run = promisify(execFile);

/** Past the lease of a killed sender's claimed rows: when the next instance may send them. */
export const AFTER_LEASE_MS = DEFAULT_OUTBOX_SETTINGS.leaseMs + 60_000;

export class OutboxCrash {
  private constructor(
    readonly t: TestApp,
    readonly smtp: SmtpTestServer,
    readonly file: string,
    private readonly dir: string,
  ) {}

  static async start(): Promise<OutboxCrash> {
    const smtp = new SmtpTestServer();
    await smtp.start();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hot-take-crash-'));
    const file = path.join(dir, 'site.sqlite');
    const t = await createTestApp('sqlite', {
      env: { DATABASE_URL: file, SMTP_URL: smtp.url, MAIL_POSTAL_ADDRESS: 'x' },
    });
    return new OutboxCrash(t, smtp, file, dir);
  }

  /**
   * A sender that has `accepted` messages accepted, then is killed while the mail server holds
   * its answer to the next; that copy is then let go, too late to count.
   */
  async killMidSend(accepted = 0): Promise<void> {
    const held = this.smtp.holdNext(accepted);
    const doomed = spawn(process.execPath, ['--import', 'tsx', WORKER, this.file, this.smtp.url, '0'], {
      stdio: 'ignore',
    });
    const gone = new Promise((resolve) => doomed.once('exit', resolve));
    await held;
    doomed.kill('SIGKILL');
    await gone;
    await this.smtp.heldSenderGone();
    this.smtp.release(); // too late: its connection is gone, so this copy was never accepted
  }

  /** Another instance's sending round, `afterMs` from now: what it says it did. */
  async sendLater(afterMs = AFTER_LEASE_MS): Promise<unknown> {
    const { stdout } = await run(process.execPath, [
      '--import',
      'tsx',
      WORKER,
      this.file,
      this.smtp.url,
      String(afterMs),
    ]);
    return JSON.parse(stdout);
  }

  async close(): Promise<void> {
    await this.t.close();
    await this.smtp.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
