/**
 * The site's VAPID keys (RFC 8292), which push services use to know our messages come from the
 * server that subscribed the browser. From VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set;
 * otherwise made at the first start and kept in `settings`, so every instance and every restart
 * signs with the same pair (browsers subscribed with its public key).
 */
import webpush from 'web-push';
import type { PushConfig } from '../config.js';
import type { Db } from '../db/connection.js';
import { siteKey } from '../db/settings.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export async function vapidKeys(db: Db, config: PushConfig): Promise<VapidKeys> {
  const pair = await siteKey(db, 'vapid_keys', {
    fromEnvironment: config.vapidKeys ? JSON.stringify(config.vapidKeys) : undefined,
    make: () => JSON.stringify(webpush.generateVAPIDKeys()),
  });
  return JSON.parse(pair) as VapidKeys;
}
