/** What the digest's e-mail, page and feed entry call a week, and its page's address. */
import { formatLocalDate } from '../../shared/time-labels.js';
import type { LocalDate } from '../../shared/time.js';

/** "The week of Monday, 23 November 2026": the digest's title, in the e-mail and on its page. */
export function weekTitle(digest: { monday: LocalDate }): string {
  return `The week of ${formatLocalDate(digest.monday)}`;
}

export const weekPath = (week: string) => `/week/${week}`;
