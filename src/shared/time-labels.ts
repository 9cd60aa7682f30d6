/**
 * How times and dates read to people: "8:00 PM Eastern Time", "November 21, 2026", "Yesterday".
 * Apart from the time rules (time.ts), which every page runs, as the page a teacher first opens
 * shows none of these and its code leaves them to the parts that do.
 */
import { daysBetween, localDateAt, localDateParts, type LocalDate, type SiteClock, type TimeOfDay } from './time.js';

/** 20:00 as "8:00 PM", 00:30 as "12:30 AM": how a time of day reads to people. */
export function formatClockTime({ hours, minutes }: TimeOfDay): string {
  const period = hours < 12 ? 'AM' : 'PM';
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}:${String(minutes).padStart(2, '0')} ${period}`;
}

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

/**
 * The site's close time with its zone, "8:00 PM Eastern Time": how every page, embed, print
 * sheet, preview image, calendar entry and message names it. The zone goes with it, as a link
 * travels to readers in other zones. Written without Intl, which a page in the browser loads
 * only when it must (adoptZoneOffsets).
 */
export const closeTimeLabel = ({ votingClosesAt, timeZone }: SiteClock) =>
  `${formatClockTime(votingClosesAt)} ${timeZoneLabel(timeZone)}`;

/** The months as en-US writes them (written out: see ZoneOffsets for why not Intl). */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** "November 21, 2026". */
export function formatLocalDate(date: LocalDate): string {
  const [year, month, day] = localDateParts(date);
  return `${MONTH_NAMES[month - 1] ?? ''} ${day}, ${year}`;
}

/**
 * How the archive labels a day: "Today", "Yesterday", "N days ago" up to a week, else the full
 * date. Counted in calendar days of the site time zone, so a poll from 23:30 yesterday is
 * "Yesterday" at 00:10 today, and a daylight-saving night does not make a day go missing.
 */
export function relativeDayLabel(date: LocalDate, now: Date, timeZone: string): string {
  const age = daysBetween(date, localDateAt(now, timeZone));
  if (age === 0) return 'Today';
  if (age === 1) return 'Yesterday';
  if (age >= 2 && age <= 7) return `${age} days ago`;
  return formatLocalDate(date);
}
