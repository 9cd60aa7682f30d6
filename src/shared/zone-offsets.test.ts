/**
 * The browser reads the site's wall clock from a table of the zone's offsets that the server
 * worked out with Intl (time.ts, ZoneOffsets). Here the table is checked against Intl itself,
 * hour by hour and around every change, in zones with daylight saving on either side of the
 * equator, half- and quarter-hour offsets, and more than two changes a year.
 */
import { describe, expect, it } from 'vitest';
import {
  adoptZoneOffsets,
  HOUR_MS,
  instantAt,
  localDateAt,
  localTimeAt,
  type LocalDate,
  votingDayAt,
  zoneOffsetsBetween,
} from './time.js';

const ZONES = [
  'America/New_York',
  'America/Los_Angeles',
  'Europe/London',
  'Australia/Lord_Howe', // daylight saving of half an hour
  'Asia/Kolkata', // +5:30, no daylight saving
  'America/St_Johns', // -3:30 with daylight saving
  'Pacific/Chatham', // +12:45 and +13:45
  'Africa/Casablanca', // clocks change around Ramadan too
];
const FROM = Date.UTC(2026, 0, 1);
const UNTIL = Date.UTC(2028, 0, 1);

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock as Intl shows it, with none of time.ts in the way. */
function intlWallClock(instant: number, timeZone: string): { date: string; time: string } {
  const formatter =
    formatters.get(timeZone) ??
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  formatters.set(timeZone, formatter);
  const parts = Object.fromEntries(formatter.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}:${parts.second}` };
}

// Worked out before any table is adopted, so by Intl alone.
const tables = ZONES.map((zone) => zoneOffsetsBetween(zone, FROM, UNTIL));
const dates: LocalDate[] = ['2026-03-08', '2026-03-29', '2026-04-05', '2026-10-04', '2026-11-01', '2027-02-21'];
const boundariesByIntl = ZONES.map((zone) =>
  dates.map((date) => [
    instantAt(date, { hours: 0, minutes: 0 }, zone).getTime(),
    instantAt(date, { hours: 2, minutes: 30 }, zone).getTime(),
    instantAt(date, { hours: 20, minutes: 0 }, zone).getTime(),
  ]),
);

describe('the zone offsets the server sends the browser', () => {
  it('finds every change of offset in the span, to the second', () => {
    const newYork = tables[0];
    expect(newYork?.changes).toEqual([
      [FROM, -5 * 3600],
      [Date.UTC(2026, 2, 8, 7), -4 * 3600],
      [Date.UTC(2026, 10, 1, 6), -5 * 3600],
      [Date.UTC(2027, 2, 14, 7), -4 * 3600],
      [Date.UTC(2027, 10, 7, 6), -5 * 3600],
    ]);
    // Lord Howe moves by half an hour; Kolkata never moves.
    expect(new Set(tables[3]?.changes.map(([, offset]) => offset / 3600))).toEqual(new Set([10.5, 11]));
    expect(tables[4]?.changes).toEqual([[FROM, 5.5 * 3600]]);
  });

  it('read through the table, every zone shows what Intl shows, hour by hour and around each change', () => {
    for (const table of tables) adoptZoneOffsets(table);
    for (const [z, zone] of ZONES.entries()) {
      const instants: number[] = [FROM - HOUR_MS, UNTIL, UNTIL + HOUR_MS]; // outside: Intl again
      for (let t = FROM; t < UNTIL; t += 3 * HOUR_MS + 17_000) instants.push(t);
      for (const [change] of tables[z]?.changes ?? []) instants.push(change - 1000, change - 1, change, change + 999);
      for (const instant of instants) {
        const expected = intlWallClock(instant, zone);
        const seen = { date: localDateAt(new Date(instant), zone), time: localTimeAt(new Date(instant), zone) };
        if (seen.date !== expected.date || seen.time !== expected.time) {
          expect({ zone, instant: new Date(instant).toISOString(), ...seen }).toEqual({
            zone,
            instant: new Date(instant).toISOString(),
            ...expected,
          });
        }
      }
      // Midnight, a time the clocks may skip or repeat, and the close, on the nights they change.
      const boundaries = dates.map((date) => [
        instantAt(date, { hours: 0, minutes: 0 }, zone).getTime(),
        instantAt(date, { hours: 2, minutes: 30 }, zone).getTime(),
        instantAt(date, { hours: 20, minutes: 0 }, zone).getTime(),
      ]);
      expect(boundaries).toEqual(boundariesByIntl[z]);
    }
    const day = votingDayAt(new Date('2026-11-01T23:59:00Z'), {
      timeZone: 'America/New_York',
      votingClosesAt: { hours: 20, minutes: 0 },
    });
    expect([day.date, day.closesAt.toISOString(), day.votingOpen]).toEqual([
      '2026-11-01',
      '2026-11-02T01:00:00.000Z',
      true,
    ]);
  });
});
