/**
 * The site's rules of time: what "today" is, when voting closes, how long is left, and how a
 * date is labelled. Everything is computed in the site's time zone (configuration, default
 * America/New_York), never in the time zone of the machine or the browser running the code.
 * Server and client both use this module, so they cannot disagree about what day it is.
 */

/** A calendar date in the site time zone, as `YYYY-MM-DD`. */
export type LocalDate = string;

/** A wall-clock time of day, such as the close time 20:00. */
export interface TimeOfDay {
  hours: number;
  minutes: number;
}

/** What the time rules need to know about the site. */
export interface SiteClock {
  timeZone: string;
  votingClosesAt: TimeOfDay;
}

/** An hour in milliseconds: every window, lifetime and limit written per hour uses this one. */
export const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const LOCAL_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Parses `HH:MM` (24-hour clock); null when it is not a real time of day. */
export function parseTimeOfDay(text: string): TimeOfDay | null {
  const match = TIME_OF_DAY_PATTERN.exec(text);
  if (!match) return null;
  return { hours: Number(match[1]), minutes: Number(match[2]) };
}

export function formatTimeOfDay({ hours, minutes }: TimeOfDay): string {
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** True when `timeZone` is an IANA zone name this JavaScript runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** True for a real calendar date written as `YYYY-MM-DD` (so not 2026-02-30). */
export function isLocalDate(text: string): boolean {
  const match = LOCAL_DATE_PATTERN.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * A zone's offsets from UTC over a span of time, worked out ahead: each change is
 * `[from instant (ms), offset (seconds)]`, in order, the first one at the span's start, and
 * the last one holds until `until`. The browser gets its site's from the server with the page
 * (`zoneOffsets`), so it reads the site's wall clock by arithmetic: a browser's first use of
 * Intl loads its locale data, 40 to 110 ms of blocked main thread on a fast machine, which
 * every page paid for its footer's year.
 */
export interface ZoneOffsets {
  timeZone: string;
  until: number;
  changes: [from: number, offsetSeconds: number][];
}

const knownOffsets = new Map<string, ZoneOffsets>();

/** From now on, reads `offsets.timeZone`'s wall clock from the table where it covers the instant. */
export function adoptZoneOffsets(offsets: ZoneOffsets): void {
  if (offsets.changes.length > 0) knownOffsets.set(offsets.timeZone, offsets);
}

/** The offset the table gives for `instant`, in ms; undefined outside its span. */
function knownOffsetMs(instant: number, timeZone: string): number | undefined {
  const known = knownOffsets.get(timeZone);
  const first = known?.changes[0];
  if (!known || !first || instant < first[0] || instant >= known.until) return undefined;
  let low = 0;
  let high = known.changes.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((known.changes[middle]?.[0] ?? Infinity) <= instant) low = middle;
    else high = middle - 1;
  }
  return (known.changes[low]?.[1] ?? 0) * 1000;
}

/**
 * `timeZone`'s offsets from `from` until `until`, found with Intl (the server's job). The
 * offset is read once a day and, where it changed, the change is found to the second.
 */
export function zoneOffsetsBetween(timeZone: string, from: number, until: number): ZoneOffsets {
  const start = Math.floor(from / 1000) * 1000;
  const offsetAt = (instant: number) => intlOffsetMs(instant, timeZone);
  const changes: [number, number][] = [[start, offsetAt(start) / 1000]];
  for (let day = start; day < until; day += DAY_MS) {
    const next = Math.min(day + DAY_MS, until);
    if (offsetAt(next) === offsetAt(day)) continue;
    // The last second still at the old offset, and the first at the new one.
    let before = day;
    let after = next;
    while (after - before > 1000) {
      const middle = before + Math.floor((after - before) / 2000) * 1000;
      if (offsetAt(middle) === offsetAt(day)) before = middle;
      else after = middle;
    }
    changes.push([after, offsetAt(after) / 1000]);
  }
  return { timeZone, until, changes };
}

/** The date and time a clock on the wall in `timeZone` shows at `instant`. */
function wallClock(instant: Date, timeZone: string): WallClock {
  const offset = knownOffsetMs(instant.getTime(), timeZone);
  if (offset !== undefined) {
    const wall = new Date(instant.getTime() + offset);
    return {
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      second: wall.getUTCSeconds(),
    };
  }
  return wallClockOfIntl(instant, timeZone);
}

function wallClockOfIntl(instant: Date, timeZone: string): WallClock {
  const fields: Record<string, number> = {};
  for (const part of wallClockFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? 0,
    month: fields.month ?? 0,
    day: fields.day ?? 0,
    hour: fields.hour ?? 0,
    minute: fields.minute ?? 0,
    second: fields.second ?? 0,
  };
}

/** The wall clock read as if it were UTC: a number that sorts like the wall clock does. */
function wallClockAsUtc(clock: WallClock): number {
  return Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
}

/** How far the zone's wall clock is ahead of UTC at `instant`, in milliseconds. */
function utcOffsetMs(instant: number, timeZone: string): number {
  return knownOffsetMs(Math.floor(instant / 1000) * 1000, timeZone) ?? intlOffsetMs(instant, timeZone);
}

function intlOffsetMs(instant: number, timeZone: string): number {
  const wholeSeconds = Math.floor(instant / 1000) * 1000;
  return wallClockAsUtc(wallClockOfIntl(new Date(wholeSeconds), timeZone)) - wholeSeconds;
}

/** The site-time-zone date at `instant`. */
export function localDateAt(instant: Date, timeZone: string): LocalDate {
  const { year, month, day } = wallClock(instant, timeZone);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The site-time-zone time of day at `instant`, as `HH:MM:SS` (24-hour clock). */
export function localTimeAt(instant: Date, timeZone: string): string {
  const { hour, minute, second } = wallClock(instant, timeZone);
  return [hour, minute, second].map((n) => String(n).padStart(2, '0')).join(':');
}

export function localDateParts(date: LocalDate): [number, number, number] {
  const match = LOCAL_DATE_PATTERN.exec(date);
  if (!match) throw new RangeError(`Not a YYYY-MM-DD date: ${date}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** `date` moved by `days` calendar days (negative goes back). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const [year, month, day] = localDateParts(date);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** Whole calendar days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: LocalDate, to: LocalDate): number {
  const [y1, m1, d1] = localDateParts(from);
  const [y2, m2, d2] = localDateParts(to);
  // Both are UTC midnights, so the difference is an exact multiple of a day.
  return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / DAY_MS);
}

/**
 * The first instant at which the site's wall clock shows `time` on `date`. On the night the
 * clocks go forward a wall time can be skipped (02:30 in New York; midnight itself in zones
 * that change at 00:00); then the answer is the moment the clock jumps past it. On the night
 * they go back a wall time happens twice; then the answer is the first of the two.
 */
export function instantAt(date: LocalDate, time: TimeOfDay, timeZone: string): Date {
  const [year, month, day] = localDateParts(date);
  const wanted = Date.UTC(year, month - 1, day, time.hours, time.minutes);
  // Offsets a day either side bracket any transition near the wanted time.
  const candidates = [
    wanted - utcOffsetMs(wanted - DAY_MS, timeZone),
    wanted - utcOffsetMs(wanted + DAY_MS, timeZone),
  ].sort((a, b) => a - b);
  for (const candidate of candidates) {
    if (wallClockAsUtc(wallClock(new Date(candidate), timeZone)) === wanted) {
      return new Date(candidate);
    }
  }
  // The wall time was skipped: find the first minute whose wall clock is past it.
  let before = candidates[0] ?? wanted;
  let after = candidates[1] ?? wanted;
  if (wallClockAsUtc(wallClock(new Date(before), timeZone)) > wanted) return new Date(before);
  while (after - before > 60_000) {
    const middle = before + Math.floor((after - before) / 120_000) * 60_000;
    if (wallClockAsUtc(wallClock(new Date(middle), timeZone)) >= wanted) after = middle;
    else before = middle;
  }
  return new Date(after);
}

/** The voting day that `now` falls in. */
export interface VotingDay {
  /** Today, in the site time zone. */
  date: LocalDate;
  /** Today's midnight: when today's poll went live. */
  startsAt: Date;
  /** Today's close time: votes are refused from this instant on. */
  closesAt: Date;
  /** The next midnight: when the next poll goes live. */
  endsAt: Date;
  /** Whether votes are accepted at `now`. */
  votingOpen: boolean;
}

const MIDNIGHT: TimeOfDay = { hours: 0, minutes: 0 };

type DayBoundaries = Pick<VotingDay, 'startsAt' | 'closesAt' | 'endsAt'>;

/** A day's boundaries never change, and every vote asks for today's: keep the recent ones. */
const boundaryCache = new Map<string, DayBoundaries>();
const BOUNDARY_CACHE_SIZE = 32;

function dayBoundaries(date: LocalDate, site: SiteClock): DayBoundaries {
  const key = `${site.timeZone}|${date}|${formatTimeOfDay(site.votingClosesAt)}`;
  let boundaries = boundaryCache.get(key);
  if (!boundaries) {
    boundaries = {
      startsAt: instantAt(date, MIDNIGHT, site.timeZone),
      closesAt: instantAt(date, site.votingClosesAt, site.timeZone),
      endsAt: instantAt(addDays(date, 1), MIDNIGHT, site.timeZone),
    };
    if (boundaryCache.size >= BOUNDARY_CACHE_SIZE) boundaryCache.clear();
    boundaryCache.set(key, boundaries);
  }
  return boundaries;
}

/** The last day asked for: nearly every call falls inside it, and then no formatting is needed. */
let lastDay: { key: string; date: LocalDate; boundaries: DayBoundaries } | undefined;

export function votingDayAt(now: Date, site: SiteClock): VotingDay {
  const time = now.getTime();
  const key = `${site.timeZone}|${formatTimeOfDay(site.votingClosesAt)}`;
  if (
    lastDay?.key !== key ||
    time < lastDay.boundaries.startsAt.getTime() ||
    time >= lastDay.boundaries.endsAt.getTime()
  ) {
    const date = localDateAt(now, site.timeZone);
    lastDay = { key, date, boundaries: dayBoundaries(date, site) };
  }
  const { date, boundaries } = lastDay;
  return { date, ...boundaries, votingOpen: time < boundaries.closesAt.getTime() };
}

export const COUNTDOWN_LABELS = {
  open: 'Time Left to Vote:',
  resultsLive: 'Results live! Next poll in:',
  ended: 'Poll ended',
} as const;

export interface Countdown {
  label: (typeof COUNTDOWN_LABELS)[keyof typeof COUNTDOWN_LABELS];
  /** "3h 25m", or "25m" under an hour; "Ended" once nothing is left to count down to. */
  value: string;
  /** Milliseconds until the value changes phase (close time or midnight); 0 when ended. */
  remainingMs: number;
}

/**
 * The countdown beside the poll: time left to vote until the close time, then time until the
 * next poll at midnight. Minutes are rounded up, so "0m" never shows while time remains.
 */
export function countdownAt(now: Date, site: SiteClock): Countdown {
  const day = votingDayAt(now, site);
  if (day.votingOpen) {
    const remainingMs = day.closesAt.getTime() - now.getTime();
    return { label: COUNTDOWN_LABELS.open, value: formatDuration(remainingMs), remainingMs };
  }
  const remainingMs = day.endsAt.getTime() - now.getTime();
  if (remainingMs > 0) {
    return { label: COUNTDOWN_LABELS.resultsLive, value: formatDuration(remainingMs), remainingMs };
  }
  return { label: COUNTDOWN_LABELS.ended, value: 'Ended', remainingMs: 0 };
}

/** Hours and minutes ("3h 5m"), or minutes only under an hour ("5m"); minutes round up. */
export function formatDuration(ms: number): string {
  const totalMinutes = Math.max(0, Math.ceil(ms / 60_000));
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  return hours > 0 ? `${hours}h ${minutes}m` : `${minutes}m`;
}
