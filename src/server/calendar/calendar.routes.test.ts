import type ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCalendarEvent } from '../testing/calendar.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newYorkTime } from '../testing/test-clock.js';
import { Visitor } from '../testing/visitor.js';

describe('GET /reminder.ics', () => {
  let t: TestApp;
  beforeEach(async () => {
    // Saturday morning in New York: the first reminder is Monday's.
    t = await createTestApp('sqlite', { env: { PUBLIC_URL: 'https://hottake.example.org' } });
  });
  afterEach(() => t.close());
  const get = (url: string) => new Visitor(t.app).get(url);

  const parse = readCalendarEvent;

  it('repeats every weekday at 3:30 pm in the site’s time zone by default, with a VTIMEZONE, a link and an alarm', async () => {
    const response = await get('/reminder.ics');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="hot-take-reminder.ics"');
    const { zone, vevent, event } = parse(response.body);
    expect(zone?.getFirstPropertyValue('tzid')).toBe('America/New_York');
    expect(event.summary).toBe('Vote on today’s Teacher Hot Take');
    expect(vevent.getFirstPropertyValue('url')).toBe('https://hottake.example.org/');
    expect(vevent.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('America/New_York');
    expect(event.startDate.zone.tzid).toBe('America/New_York');
    expect(event.startDate.toString()).toBe('2026-11-23T15:30:00');
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-11-23T20:30:00.000Z');
    const rule = vevent.getFirstPropertyValue('rrule') as ICAL.Recur;
    expect(rule.freq).toBe('WEEKLY');
    expect(rule.getComponent('byday')).toEqual(['MO', 'TU', 'WE', 'TH', 'FR']);
    // The next occurrences: the weekdays, the clock time kept through the change of offset.
    const iterator = event.iterator();
    const next = Array.from({ length: 6 }, () => iterator.next().toString());
    expect(next).toEqual([
      '2026-11-23T15:30:00',
      '2026-11-24T15:30:00',
      '2026-11-25T15:30:00',
      '2026-11-26T15:30:00',
      '2026-11-27T15:30:00',
      '2026-11-30T15:30:00',
    ]);
    const alarm = vevent.getFirstSubcomponent('valarm');
    expect(alarm?.getFirstPropertyValue('action')).toBe('DISPLAY');
    expect(String(alarm?.getFirstPropertyValue('trigger'))).toBe('PT0S');
    expect(vevent.getFirstPropertyValue('dtstamp')?.toString()).toBe('2026-11-21T15:00:00Z');
  });

  it('takes the visitor’s time, and refuses one that is not HH:MM', async () => {
    t.clock.set(newYorkTime('2026-11-23', '09:00'));
    const { event } = parse((await get('/reminder.ics?time=07:45')).body);
    expect(event.startDate.toString()).toBe('2026-11-23T07:45:00');
    for (const time of ['25:00', '7:45', 'soon', '12:60']) {
      const response = await get(`/reminder.ics?time=${time}`);
      expect(response.statusCode, time).toBe(400);
      expect(response.json()).toEqual({
        message: 'The time must be HH:MM on a 24-hour clock, for example 15:30.',
        code: 'validation',
      });
    }
  });
});
