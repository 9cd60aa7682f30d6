/**
 * A real SMTP server inside the test process (the smtp-server package). A message counts as
 * delivered when this server accepts it (answers 250), as with any mail server. It can be
 * stopped and started again on the same port, and told to hold its answer to the next message.
 * It never offers STARTTLS: with `login`, it takes a password in the clear, as a server whose
 * STARTTLS an attacker stripped would, and keeps every password it was sent.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Delivered {
  to: string[];
  parsed: ParsedMail;
  raw: string;
}

export class SmtpTestServer {
  readonly delivered: Delivered[] = [];
  /** Every password a client sent with AUTH, right or wrong. */
  readonly passwordsReceived: string[] = [];
  port = 0;
  #server: SMTPServer | undefined;
  #holdNext = false;
  #holdAfter = 0;
  #held: (() => void) | undefined;
  #onHeld: (() => void) | undefined;
  readonly #closedSessions = new Set<string>();
  #heldSession: string | undefined;
  #onHeldSessionClosed: (() => void) | undefined;

  /** With `login`, the server asks for that user name and password (AUTH); without, for none. */
  constructor(private readonly login?: { user: string; pass: string }) {}

  /** The server's address, with the login in it when it has one. */
  get url(): string {
    const login = this.login ? `${encodeURIComponent(this.login.user)}:${encodeURIComponent(this.login.pass)}@` : '';
    return `smtp://${login}127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const login = this.login;
    this.#server = new SMTPServer({
      authOptional: !login,
      disabledCommands: login ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      onAuth: (auth, _session, callback) => {
        this.passwordsReceived.push(auth.password ?? '');
        if (auth.username === login?.user && auth.password === login?.pass) callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      logger: false,
      onClose: (session) => {
        this.#closedSessions.add(session.id);
        if (session.id === this.#heldSession) this.#onHeldSessionClosed?.();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const accept = () => {
            // A sender that hung up before our answer never had its message accepted.
            if (this.#closedSessions.has(session.id)) return;
            const raw = Buffer.concat(chunks).toString('utf8');
            void simpleParser(raw).then((parsed) => {
              this.delivered.push({ to: session.envelope.rcptTo.map((r) => r.address), parsed, raw });
              callback();
            });
          };
          if (this.#holdNext && this.delivered.length >= this.#holdAfter) {
            // Keep the sender waiting for our answer; if it goes away, nothing was delivered.
            this.#holdNext = false;
            this.#held = accept;
            this.#heldSession = session.id;
            this.#onHeld?.();
          } else {
            accept();
          }
        });
      },
    });
    const server = this.#server;
    await new Promise<void>((resolve, reject) => {
      server.on('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Holds the answer to the next message (the first after `afterDelivered` were accepted: a
   * sender stopped mid-batch); resolves once that message has been received.
   */
  holdNext(afterDelivered = 0): Promise<void> {
    this.#holdNext = true;
    this.#holdAfter = afterDelivered;
    return new Promise((resolve) => (this.#onHeld = resolve));
  }

  /** Resolves once the sender of the held message has hung up. */
  heldSenderGone(): Promise<void> {
    return new Promise((resolve) => {
      if (this.#heldSession !== undefined && this.#closedSessions.has(this.#heldSession)) resolve();
      else this.#onHeldSessionClosed = resolve;
    });
  }

  /** Answers the held message now (if its sender is still there). */
  release(): void {
    this.#held?.();
    this.#held = undefined;
  }

  /** A header of a delivered message, as sent (folded lines joined). */
  static header(mail: Delivered, name: string): string | undefined {
    const head = mail.raw.split('\r\n\r\n')[0] ?? '';
    const unfolded = head.replace(/\r\n[ \t]+/g, ' ');
    const line = unfolded.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
    return line?.slice(name.length + 1).trim();
  }

  to(address: string): Delivered[] {
    return this.delivered.filter((mail) => mail.to.includes(address));
  }
}

/** The path of the confirmation link in a delivered e-mail (to follow it as a person would). */
export function confirmationPath(mail: Delivered | undefined): string {
  const path = /https?:\/\/[^/\s]+(\/subscribe\/confirm\?token=[A-Za-z0-9_-]{16,64})\s/.exec(
    mail?.parsed.text ?? '',
  )?.[1];
  if (!path) throw new Error('no confirmation link in the e-mail');
  return path;
}

/** The path of the unsubscribe link a mail client's one-click button posts to (RFC 8058). */
export function unsubscribePath(mail: Delivered | undefined): string {
  const header = mail ? SmtpTestServer.header(mail, 'List-Unsubscribe') : undefined;
  const path = /^<https?:\/\/[^/\s]+(\/unsubscribe\?token=[A-Za-z0-9_-]{16,64})>$/.exec(header ?? '')?.[1];
  if (!path) throw new Error('no unsubscribe link in the e-mail');
  return path;
}
