/**
 * A push service in the test process, as a browser's would be (RFC 8030, 8291, 8292): https
 * with a certificate made for the test, subscriptions whose keys the test generated, and for
 * each message it receives, the VAPID token's signature checked (ES256, against the key in its
 * `k=`, which must be the site's) and the body decrypted (aes128gcm, with http_ece). A message
 * whose token or encryption fails is refused as a real service would (401/400) and recorded.
 * Tests script its answers per subscription (404, 410, 429 with Retry-After, 5xx, 413...),
 * or hold an answer back (a sender killed before it hears it).
 */
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Agent, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ece from 'http_ece';

export interface TestSubscription {
  id: string;
  /** What `PushSubscription.toJSON()` gives a browser. */
  json: { endpoint: string; keys: { p256dh: string; auth: string } };
  ecdh: ECDH;
  authSecret: Buffer;
}

export interface ReceivedMessage {
  subscriptionId: string;
  topic: string | undefined;
  ttl: number;
  urgency: string | undefined;
  /** The decrypted JSON; null when the body could not be decrypted. */
  payload: Record<string, unknown> | null;
  vapid: VapidCheck;
  /** What the service answered. */
  status: number;
}

export type VapidCheck = { ok: true; subject: string } | { ok: false; why: string };

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
}

const fromBase64Url = (text: string) => Buffer.from(text, 'base64url');

/** The public key of an uncompressed P-256 point (65 bytes, as VAPID's `k=` and a browser's p256dh carry it). */
function publicKeyOfPoint(point: Buffer) {
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
}

/**
 * Checks an `Authorization: vapid t=<JWT>, k=<key>` header (RFC 8292): the JWT is ES256 signed
 * by `k`'s private key, for `audience` (the push service's origin), not expired nor valid for
 * more than 24 hours, with a subject; and `k` is `expectedKey` when given (the key the browser
 * subscribed with).
 */
export function checkVapid(header: string | undefined, audience: string, now: Date, expectedKey?: string): VapidCheck {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) return { ok: false, why: 'no vapid authorization' };
  const [, token = '', key = ''] = match;
  if (expectedKey !== undefined && key !== expectedKey)
    return { ok: false, why: 'not the key the browser subscribed with' };
  const [head = '', body = '', signature = ''] = token.split('.');
  let claims: { aud?: string; exp?: number; sub?: string };
  try {
    const header = JSON.parse(fromBase64Url(head).toString('utf8')) as { alg?: string };
    if (header.alg !== 'ES256') return { ok: false, why: 'not ES256' };
    const valid = verify(
      'sha256',
      Buffer.from(`${head}.${body}`),
      { key: publicKeyOfPoint(fromBase64Url(key)), dsaEncoding: 'ieee-p1363' },
      fromBase64Url(signature),
    );
    if (!valid) return { ok: false, why: 'bad signature' };
    claims = JSON.parse(fromBase64Url(body).toString('utf8')) as typeof claims;
  } catch (error) {
    return { ok: false, why: `unreadable token: ${(error as Error).message}` };
  }
  const nowSeconds = now.getTime() / 1000;
  if (claims.aud !== audience) return { ok: false, why: `audience ${claims.aud}` };
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds || claims.exp > nowSeconds + 24 * 3600 + 60) {
    return { ok: false, why: 'expired or too long' };
  }
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return { ok: false, why: 'no subject' };
  return { ok: true, subject: claims.sub };
}

/** Decrypts a message body for a subscription's keys (RFC 8291, aes128gcm); throws when they are not the keys it was sent to. */
export function decryptMessage(body: Buffer, subscription: Pick<TestSubscription, 'ecdh' | 'authSecret'>): string {
  return ece
    .decrypt(body, { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.authSecret })
    .toString('utf8');
}

/** A certificate for localhost and 127.0.0.1, made with openssl for this run only. */
function makeCertificate(): { cert: string; key: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fake-push-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return {
      cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
      key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export class FakePushService {
  readonly received: ReceivedMessage[] = [];
  readonly subscriptions = new Map<string, TestSubscription>();
  /** The site's VAPID public key: a message signed with any other is refused. Set by the test. */
  expectedKey: string | undefined;
  /** Answers to give a subscription's next messages, in order; then 201. */
  readonly scripts = new Map<string, ScriptedAnswer[]>();
  /** When set, a message's answer waits until this resolves (a sender killed meanwhile never hears it). */
  hold: ((message: ReceivedMessage) => Promise<void>) | undefined;
  /** Whether to keep each message (the bench turns it off and counts). */
  keep = true;
  count = 0;
  readonly certificate: { cert: string; key: string };
  #server: Server | undefined;
  #origin = '';

  constructor() {
    this.certificate = makeCertificate();
  }

  get origin(): string {
    return this.#origin;
  }

  /** What PUSH_SERVICE_HOSTS names to allow this service (its port is not https's 443). */
  get host(): string {
    return new URL(this.#origin).host;
  }

  /** An agent that trusts this service's certificate, for the site's sender. */
  agent(maxSockets = 64): Agent {
    return new Agent({ ca: this.certificate.cert, keepAlive: true, maxSockets });
  }

  async start(): Promise<void> {
    this.#server = createServer({ ...this.certificate, keepAliveTimeout: 30_000 }, (request, response) =>
      this.#receive(request, response),
    );
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.#origin = `https://localhost:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  /** A browser's subscription to this service, with keys made now. */
  subscribe(): TestSubscription {
    const id = randomBytes(12).toString('base64url');
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const authSecret = randomBytes(16);
    const subscription: TestSubscription = {
      id,
      json: {
        endpoint: `${this.#origin}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
      },
      ecdh,
      authSecret,
    };
    this.subscriptions.set(id, subscription);
    return subscription;
  }

  /** Forgets a subscription: its messages then get 410 Gone. */
  unsubscribe(id: string): void {
    this.subscriptions.delete(id);
  }

  messagesFor(id: string): ReceivedMessage[] {
    return this.received.filter((message) => message.subscriptionId === id);
  }

  #receive(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void this.#answer(request, Buffer.concat(chunks), response);
    });
  }

  async #answer(request: IncomingMessage, body: Buffer, response: ServerResponse): Promise<void> {
    const id = /^\/push\/([A-Za-z0-9_-]+)$/.exec(request.url ?? '')?.[1] ?? '';
    const subscription = this.subscriptions.get(id);
    const vapid = checkVapid(request.headers.authorization, this.#origin, new Date(), this.expectedKey);
    let payload: Record<string, unknown> | null = null;
    if (subscription) {
      try {
        payload = JSON.parse(decryptMessage(body, subscription)) as Record<string, unknown>;
      } catch {
        payload = null;
      }
    }
    const scripted = this.scripts.get(id)?.shift();
    const status = !subscription ? 410 : !vapid.ok ? 401 : payload === null ? 400 : (scripted?.status ?? 201);
    const message: ReceivedMessage = {
      subscriptionId: id,
      topic: request.headers.topic as string | undefined,
      ttl: Number(request.headers.ttl),
      urgency: request.headers.urgency as string | undefined,
      payload,
      vapid,
      status,
    };
    this.count++;
    if (this.keep) this.received.push(message);
    if (this.hold) await this.hold(message);
    response.writeHead(status, scripted?.headers ?? {});
    response.end();
  }
}
