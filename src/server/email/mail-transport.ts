/**
 * Where e-mail goes: a real mail server (SMTP_URL), or, with none configured, .eml files in
 * MAIL_OUTBOX_DIR and a log line, so the whole flow works on one machine. Log lines name the
 * message, never the address.
 */
import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { MailConfig } from '../config.js';

export interface OutgoingMail {
  /** One parsed address, never a string: nodemailer reads a string as an address list. */
  to: { name: string; address: string };
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  /** Stable per outbox row: a resend after a crash carries the same Message-ID. */
  messageId: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  /** "smtp" or "files", for the start-up log. */
  kind: 'smtp' | 'files';
  close(): void;
}

/** A send must end well within an outbox lease (see outbox.worker.ts). */
const SMTP_TIMEOUT_MS = 60_000;

export function createMailTransport(config: MailConfig, log: FastifyBaseLogger): MailTransport {
  if (config.smtpUrl) {
    const url = new URL(config.smtpUrl);
    const secure = url.protocol === 'smtps:';
    const credentials = url.username !== '';
    // Without requireTLS, a man in the middle who strips STARTTLS from the server's answer
    // gets the password in the clear. Without credentials, TLS stays opportunistic.
    const requireTLS = credentials && !config.allowPlaintextLocalhost;
    const transporter = nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      requireTLS,
      ...(credentials
        ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
        : {}),
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
    return {
      kind: 'smtp',
      async send(mail) {
        try {
          await transporter.sendMail({ from: config.from, ...mail });
        } catch (error) {
          if (requireTLS && !secure && (error as { code?: unknown }).code === 'ETLS') {
            throw new Error(
              `the mail server offered no working STARTTLS, and the SMTP password goes only over TLS (${(error as Error).message})`,
              { cause: error },
            );
          }
          throw error;
        }
      },
      close: () => transporter.close(),
    };
  }
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    kind: 'files',
    async send(mail) {
      const info = await transporter.sendMail({ from: config.from, ...mail });
      fs.mkdirSync(config.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.messageId.replace(/[^A-Za-z0-9.-]/g, '')}.eml`;
      const file = path.join(config.outboxDir, name);
      fs.writeFileSync(file, info.message as Buffer);
      log.info(
        { file: path.relative(process.cwd(), file), subject: mail.subject },
        'e-mail written to a file (no SMTP_URL set)',
      );
    },
    close: () => transporter.close(),
  };
}
