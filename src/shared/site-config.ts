import type { ZoneOffsets } from './time.js';

/**
 * What the browser needs to know about this deployment. The server writes it into the page as
 * JSON (a script element that is never executed, so the CSP allows it); the app reads it once.
 */
export interface SiteConfig {
  siteName: string;
  /** The canonical address of the site (PUBLIC_URL): shared and copied links use it. */
  publicUrl: string;
  /** The parent brand named in the consent label and linked from the footer, if any. */
  brandName: string | null;
  brandUrl: string | null;
  /** Where people write with questions and privacy requests, if configured. */
  contactEmail: string | null;
  /** The IANA time zone of "today", the close time and midnight. */
  timeZone: string;
  /** The daily close time, HH:MM on a 24-hour clock. */
  votingClosesAt: string;
  /** The time zone's offsets from a year ago to three years ahead, so the browser needs no Intl (time.ts). */
  zoneOffsets?: ZoneOffsets;
}

/** What a site is when its settings are left unset (the server's configuration and the app agree). */
export const SITE_DEFAULTS = {
  siteName: 'Teacher Hot Take',
  timeZone: 'America/New_York',
  votingClosesAt: '20:00',
} as const satisfies Partial<SiteConfig>;

/** The id of the element holding the SiteConfig JSON. */
export const SITE_CONFIG_ELEMENT_ID = 'site-config';

/** Placeholders in src/client/index.html that the server fills in. */
export const HTML_PLACEHOLDERS = {
  nonce: '__CSP_NONCE__',
  siteConfig: '__SITE_CONFIG__',
  siteName: '__SITE_NAME__',
} as const;
