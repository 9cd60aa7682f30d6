/**
 * The fake push service's checks can fail: a token or a message that is not right is refused.
 * Without these negative controls, the end-to-end tests would prove nothing about the wire.
 */
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { checkVapid, decryptMessage, FakePushService } from '../testing/fake-push-service.js';

const push = new FakePushService(); // not started: only its keys are used
const audience = 'https://push.example';
const site = webpush.generateVAPIDKeys();
const authorization = (keys = site, aud = audience) =>
  webpush.getVapidHeaders(aud, 'mailto:staff@example.org', keys.publicKey, keys.privateKey, 'aes128gcm').Authorization;

describe('VAPID (RFC 8292) as the fake service checks it', () => {
  it('takes a token web-push signed with the site’s key', () => {
    expect(checkVapid(authorization(), audience, new Date(), site.publicKey)).toEqual({
      ok: true,
      subject: 'mailto:staff@example.org',
    });
  });

  it('refuses a tampered token: claims changed after signing', () => {
    const [, token = '', key] = /^vapid t=([^,]+), k=(.+)$/.exec(authorization()) ?? [];
    const [head, body, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(body ?? '', 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'mailto:attacker@example.org' })).toString('base64url');
    const check = checkVapid(`vapid t=${head}.${forged}.${signature}, k=${key}`, audience, new Date(), site.publicKey);
    expect(check).toEqual({ ok: false, why: 'bad signature' });
  });

  it('refuses a token signed with another key that claims the site’s key', () => {
    const other = webpush.generateVAPIDKeys();
    const [, token] = /^vapid t=([^,]+), k=/.exec(authorization(other)) ?? [];
    expect(checkVapid(`vapid t=${token}, k=${site.publicKey}`, audience, new Date(), site.publicKey)).toEqual({
      ok: false,
      why: 'bad signature',
    });
    // And signed with its own key, it is still not the key the browser subscribed with.
    expect(checkVapid(authorization(other), audience, new Date(), site.publicKey)).toMatchObject({ ok: false });
  });

  it('refuses a token for another push service, or an expired one', () => {
    expect(checkVapid(authorization(site, 'https://other.example'), audience, new Date())).toMatchObject({ ok: false });
    expect(checkVapid(authorization(), audience, new Date(Date.now() + 25 * 3_600_000))).toMatchObject({ ok: false });
  });
});

describe('message encryption (RFC 8291) as the fake service reads it', () => {
  const browser = push.subscribe();
  const encrypted = () =>
    webpush.encrypt(browser.json.keys.p256dh, browser.json.keys.auth, '{"body":"hello"}', 'aes128gcm').cipherText;

  it('decrypts what was encrypted for the subscription’s keys', () => {
    expect(decryptMessage(encrypted(), browser)).toBe('{"body":"hello"}');
  });

  it('fails with another subscription’s key, with the wrong secret, and on a changed byte', () => {
    const other = push.subscribe();
    expect(() => decryptMessage(encrypted(), other)).toThrow();
    expect(() => decryptMessage(encrypted(), { ecdh: browser.ecdh, authSecret: other.authSecret })).toThrow();
    const changed = encrypted();
    changed[changed.length - 5] = (changed[changed.length - 5] ?? 0) ^ 1;
    expect(() => decryptMessage(changed, browser)).toThrow();
  });
});
