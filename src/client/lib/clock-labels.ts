/** How a time of day and a calendar day read on screen. */
import { formatClockTime, MONTH_NAMES, type LocalDate, type SiteClock } from '../../shared/time.js';

/** Names people use for the US zones; any other zone is shown by its IANA name. */
const ZONE_NAMES: Record<string, string> = {
  'America/New_York': 'Eastern Time',
  'America/Detroit': 'Eastern Time',
  'America/Chicago': 'Central Time',
  'America/Denver': 'Mountain Time',
  'America/Phoenix': 'Arizona Time',
  'America/Los_Angeles': 'Pacific Time',
  'America/Anchorage': 'Alaska Time',
  'Pacific/Honolulu': 'Hawaii Time',
};

/** "Eastern Time" for America/New_York; "Europe/London time" for a zone without a common name. */
export function timeZoneLabel(timeZone: string): string {
  return ZONE_NAMES[timeZone] ?? `${timeZone} time`;
}

/** A site's close time with its zone: "8:00 PM Eastern Time". */
export const closeTimeLabel = ({ votingClosesAt, timeZone }: SiteClock) =>
  `${formatClockTime(votingClosesAt)} ${timeZoneLabel(timeZone)}`;

/** "Nov 14, 2026": a calendar day where a full date does not fit (it is a day, so no zone applies). */
export function formatShortLocalDate(date: LocalDate): string {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  return `${MONTH_NAMES[month - 1]?.slice(0, 3) ?? ''} ${day}, ${year}`;
}
