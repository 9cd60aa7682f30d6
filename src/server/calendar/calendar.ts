/**
 * The daily reminder: an iCalendar file (RFC 5545) with one event that repeats every weekday at
 * the time the visitor picked, in the site's time zone, written by ical-generator with a real
 * VTIMEZONE (from @touch4it/ical-timezones) so Google Calendar, Outlook and Apple Calendar
 * all place it at the same wall-clock time through daylight-saving changes.
 */
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { ICalAlarmType, ICalCalendarMethod, ICalEventRepeatingFreq, ICalWeekday } from 'ical-generator';
import { addDays, localDateAt, type TimeOfDay } from '../../shared/time.js';
import { closeTimeLabel } from '../../shared/time-labels.js';

/** 3:30 pm: after the last bell, before the close. */
export const DEFAULT_REMINDER_TIME: TimeOfDay = { hours: 15, minutes: 30 };
const WEEKDAYS = [ICalWeekday.MO, ICalWeekday.TU, ICalWeekday.WE, ICalWeekday.TH, ICalWeekday.FR];

export interface ReminderSite {
  siteName: string;
  publicUrl: string;
  timeZone: string;
  votingClosesAt: TimeOfDay;
}

export function reminderCalendar(site: ReminderSite, time: TimeOfDay, now: Date): string {
  // The first occurrence: the next weekday (today included) in the site's time zone.
  let day = localDateAt(now, site.timeZone);
  while ([0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay())) day = addDays(day, 1);
  // The start as the site's wall clock: with a time zone, ical-generator writes a string as given.
  const wall = (later: number) => {
    const minutes = Math.min(time.hours * 60 + time.minutes + later, 24 * 60 - 1);
    return `${day}T${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;
  };
  const host = new URL(site.publicUrl).hostname;
  const hhmm = `${String(time.hours).padStart(2, '0')}${String(time.minutes).padStart(2, '0')}`;

  const calendar = ical({
    name: `${site.siteName} reminder`,
    prodId: { company: site.siteName, product: 'Daily reminder', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    timezone: { name: site.timeZone, generator: getVtimezoneComponent },
  });
  calendar.createEvent({
    // The same time gives the same event: importing it twice updates it instead of doubling it.
    id: `daily-reminder-${hhmm}@${host}`,
    start: wall(0),
    end: wall(5),
    timezone: site.timeZone,
    summary: `Vote on today’s ${site.siteName}`,
    description:
      `One education poll a day: vote anonymously in seconds and see where colleagues stand. ` +
      `Voting closes at ${closeTimeLabel(site)}. ${site.publicUrl}/`,
    url: `${site.publicUrl}/`,
    repeating: { freq: ICalEventRepeatingFreq.WEEKLY, byDay: WEEKDAYS },
    alarms: [{ type: ICalAlarmType.display, trigger: 0, description: `Today’s ${site.siteName} is open` }],
  });
  // RFC 5545 wants DTSTAMP in UTC; with a calendar time zone ical-generator writes any Date in
  // the machine's local time, so the stamp is written here, from the clock.
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return calendar.toString().replace(/^DTSTAMP:.*$/m, `DTSTAMP:${stamp}`);
}
