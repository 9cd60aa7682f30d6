/** This deployment's settings, as the server wrote them into the page. */
import { pollUrlOf } from '../../shared/poll-links.js';
import { SITE_CONFIG_ELEMENT_ID, SITE_DEFAULTS, type SiteConfig } from '../../shared/site-config.js';
import { SSR_SITE_CONFIG_GLOBAL, type SsrSiteConfigHolder } from '../../shared/ssr.js';
import { adoptZoneOffsets, parseTimeOfDay, type SiteClock, type TimeOfDay } from '../../shared/time.js';

const DEFAULTS: SiteConfig = {
  ...SITE_DEFAULTS,
  publicUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  brandName: null,
  brandUrl: null,
  contactEmail: null,
};

function readSiteConfig(): SiteConfig {
  // On the server (entry-server.tsx), the server hands the configuration over before loading the app.
  if (typeof document === 'undefined') {
    return { ...DEFAULTS, ...(globalThis as unknown as Partial<SsrSiteConfigHolder>)[SSR_SITE_CONFIG_GLOBAL] };
  }
  const text = document.getElementById(SITE_CONFIG_ELEMENT_ID)?.textContent ?? '';
  try {
    return { ...DEFAULTS, ...(JSON.parse(text) as Partial<SiteConfig>) };
  } catch {
    return DEFAULTS; // the Vite dev server serves the template unfilled
  }
}

export const siteConfig: SiteConfig = readSiteConfig();
// The site's wall clock by arithmetic from here on, rather than by loading Intl (time.ts).
if (siteConfig.zoneOffsets) adoptZoneOffsets(siteConfig.zoneOffsets);

/** The canonical address of poll N: what share links carry and Copy Link copies. */
export const pollUrl = (pollNumber: number) => pollUrlOf(siteConfig.publicUrl, pollNumber);

/** The time rules of src/shared/time.ts, for this site. */
export const siteClock: SiteClock = {
  timeZone: siteConfig.timeZone,
  votingClosesAt: closeTime(siteConfig.votingClosesAt),
};

function closeTime(text: string): TimeOfDay {
  const time = parseTimeOfDay(text) ?? parseTimeOfDay(SITE_DEFAULTS.votingClosesAt);
  if (!time) throw new Error(`The default close time ${SITE_DEFAULTS.votingClosesAt} does not parse`);
  return time;
}
