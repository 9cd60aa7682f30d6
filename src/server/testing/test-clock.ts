import { instantAt, parseTimeOfDay, type LocalDate } from '../../shared/time.js';
import type { Clock } from '../clock.js';
import { loadConfig, type Site } from '../config.js';

export const SITE_TIME_ZONE = 'America/New_York';

/** The instant a New York wall clock shows `time` (HH:MM or HH:MM:SS) on `date`. */
export function newYorkTime(date: LocalDate, time: string): Date {
  const timeOfDay = parseTimeOfDay(time.slice(0, 5));
  const seconds = time.slice(6) || '0';
  if (!timeOfDay) throw new Error(`bad time ${time}`);
  return new Date(instantAt(date, timeOfDay, SITE_TIME_ZONE).getTime() + Number(seconds) * 1000);
}

/**
 * A time zone where it is now between 04:00 and 18:00, so voting is open whenever a test on
 * the real clock (a server process) runs.
 */
export function daytimeZone(): string {
  const zones = ['UTC', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo', 'Asia/Kolkata', 'Europe/Berlin'];
  const hourIn = (zone: string) =>
    Number(new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(new Date()));
  return zones.find((zone) => hourIn(zone) >= 4 && hourIn(zone) < 18) ?? 'UTC';
}

/** A clock that stands still until a test moves it. */
export class TestClock implements Clock {
  #now: number;

  constructor(start: Date) {
    this.#now = start.getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  set(instant: Date): void {
    this.#now = instant.getTime();
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}

/** The site the tests run: the defaults, in New York, closing at 20:00. */
export function testSite(overrides: Partial<Site> = {}): Site {
  return { ...loadConfig({ SITE_TIMEZONE: SITE_TIME_ZONE }).site, ...overrides };
}
