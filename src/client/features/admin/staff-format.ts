/** How the staff screens write a moment: in the site's time zone, short. */
import { siteConfig } from '../../lib/site-config.js';

export function formatMoment(iso: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: siteConfig.timeZone,
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(iso));
}
