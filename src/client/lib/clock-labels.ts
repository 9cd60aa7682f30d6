/** How a calendar day reads on screen where a full date does not fit. */
import { type LocalDate } from '../../shared/time.js';
import { MONTH_NAMES } from '../../shared/time-labels.js';

/** "Nov 14, 2026": a calendar day where a full date does not fit (it is a day, so no zone applies). */
export function formatShortLocalDate(date: LocalDate): string {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  return `${MONTH_NAMES[month - 1]?.slice(0, 3) ?? ''} ${day}, ${year}`;
}
