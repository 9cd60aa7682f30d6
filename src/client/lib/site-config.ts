/** This deployment's settings, as the server wrote them into the page. */
import { SITE_CONFIG_ELEMENT_ID, type SiteConfig } from '../../shared/site-config.js';
import { parseTimeOfDay, type SiteClock } from '../../shared/time.js';

const DEFAULTS: SiteConfig = {
  siteName: 'Teacher Hot Take',
  publicUrl: window.location.origin,
  brandName: null,
  brandUrl: null,
  contactEmail: null,
  timeZone: 'America/New_York',
  votingClosesAt: '20:00',
};

function readSiteConfig(): SiteConfig {
  const text = document.getElementById(SITE_CONFIG_ELEMENT_ID)?.textContent ?? '';
  try {
    return { ...DEFAULTS, ...(JSON.parse(text) as Partial<SiteConfig>) };
  } catch {
    return DEFAULTS; // the Vite dev server serves the template unfilled
  }
}

export const siteConfig: SiteConfig = readSiteConfig();

/** The canonical address of poll N: what share links carry and Copy Link copies. */
export const pollUrl = (pollNumber: number) => `${siteConfig.publicUrl}/poll-${pollNumber}`;

/** The time rules of src/shared/time.ts, for this site. */
export const siteClock: SiteClock = {
  timeZone: siteConfig.timeZone,
  votingClosesAt: parseTimeOfDay(siteConfig.votingClosesAt) ?? { hours: 20, minutes: 0 },
};
