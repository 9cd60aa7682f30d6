/**
 * What this browser can do about reminders, and turning them on: the browser's permission
 * prompt comes only from `turnOn`, which only a click calls.
 */
import { turnOnReminder } from '../../api/reminders.js';
import type { ReminderSettings } from '../../../shared/reminders.js';

export type PushSupport =
  /** Push works here: offer it. */
  | 'supported'
  /** The visitor blocked notifications for this site: say nothing. */
  | 'denied'
  /** An iPhone or iPad in Safari: push comes once the site is on the home screen. */
  | 'home-screen-first'
  /** No push in this browser. */
  | 'unsupported';

function isAppleMobile(): boolean {
  const { userAgent, maxTouchPoints } = navigator;
  // iPadOS says it is a Mac; a Mac has no touch screen.
  return /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}

function isInstalled(): boolean {
  return (
    window.matchMedia('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined') return 'unsupported';
  const hasPush = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (isAppleMobile() && !isInstalled()) return 'home-screen-first';
  if (!hasPush) return 'unsupported';
  return Notification.permission === 'denied' ? 'denied' : 'supported';
}

/** The browser's own time zone, which reminders keep to (15:30 where the teacher is). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Base64url to the bytes PushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const bytes = new Uint8Array(a);
  return bytes.every((byte, i) => byte === b[i]);
}

export type TurnOnOutcome = { ok: true; reminder: ReminderSettings } | { ok: false; reason: 'denied' | 'failed' };

/** Asks the browser's permission (the prompt), subscribes with the site's key, and tells the site. */
export async function turnOn(
  applicationServerKey: string,
  settings: Partial<ReminderSettings> = {},
): Promise<TurnOnOutcome> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return { ok: false, reason: 'denied' };
  const registration = await navigator.serviceWorker.ready;
  const key = keyBytes(applicationServerKey);
  let subscription = await registration.pushManager.getSubscription();
  // One made with another key (the site's keys changed, or the demo was refilled) cannot be sent to.
  if (subscription && !sameBytes(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const { reminder } = await turnOnReminder(subscription.toJSON(), { timeZone: browserTimeZone(), ...settings });
  return { ok: true, reminder };
}

/** Turns push off in the browser too, so nothing lingers once the site forgot it. */
export async function unsubscribeBrowser(): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  await subscription?.unsubscribe();
}
