import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { SmtpTestServer } from '../testing/smtp-test-server.js';
import { createMailTransport } from './mail-transport.js';

const mail = {
  to: { name: '', address: 'pat@example.org' },
  subject: 'Today’s hot take',
  html: '<p>Vote</p>',
  text: 'Vote',
  headers: {},
  messageId: '<outbox-1@hottake.example.org>',
};

describe('SMTP credentials', () => {
  // A server that offers no STARTTLS looks the same as one whose offer an attacker stripped.
  let smtp: SmtpTestServer;
  beforeEach(async () => {
    smtp = new SmtpTestServer({ user: 'mailer', pass: 'staffroom-secret-7' });
    await smtp.start();
  });
  afterEach(() => smtp.stop());

  async function send(env: Record<string, string>) {
    const config = loadConfig({ MAIL_POSTAL_ADDRESS: '1 School Lane, Springfield, IL 62701', ...env });
    const transport = createMailTransport(config.mail, Fastify().log);
    try {
      await transport.send(mail);
    } finally {
      transport.close();
    }
  }

  it('go only over TLS: without STARTTLS nothing is sent and the password never reaches the server', async () => {
    await expect(send({ SMTP_URL: smtp.url })).rejects.toThrow(/STARTTLS.*only over TLS/);
    expect(smtp.passwordsReceived).toEqual([]);
    expect(smtp.delivered).toEqual([]);
  });

  it('go in the clear to a relay on this machine when SMTP_ALLOW_PLAINTEXT_LOCALHOST says so', async () => {
    await send({ SMTP_URL: smtp.url, SMTP_ALLOW_PLAINTEXT_LOCALHOST: 'true' });
    expect(smtp.passwordsReceived).toEqual(['staffroom-secret-7']);
    expect(smtp.delivered.map((delivered) => delivered.to)).toEqual([['pat@example.org']]);
  });
});
