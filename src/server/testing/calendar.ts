/** A calendar file's one event as ical.js reads it, with the time zone the file defines registered. */
import ICAL from 'ical.js';

export function readCalendarEvent(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const zone = calendar.getFirstSubcomponent('vtimezone');
  if (zone) ICAL.TimezoneService.register(zone);
  const vevent = calendar.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  return { calendar, zone, vevent, event: new ICAL.Event(vevent) };
}
