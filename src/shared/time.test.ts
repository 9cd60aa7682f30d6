import { describe, expect, it } from 'vitest';
import {
  addDays,
  countdownAt,
  daysBetween,
  formatDuration,
  instantAt,
  isLocalDate,
  isValidTimeZone,
  localDateAt,
  localTimeAt,
  parseTimeOfDay,
  votingDayAt,
  type SiteClock,
} from './time.js';
import { formatClockTime, formatLocalDate, relativeDayLabel } from './time-labels.js';

const NEW_YORK: SiteClock = { timeZone: 'America/New_York', votingClosesAt: { hours: 20, minutes: 0 } };
const at = (iso: string) => new Date(iso);

describe('the test run itself', () => {
  it('runs in a time zone that is neither UTC nor New York', () => {
    const offset = new Date('2026-11-21T12:00:00Z').getTimezoneOffset();
    expect(offset).not.toBe(0);
    expect(offset).not.toBe(300);
  });
});

describe('localDateAt', () => {
  it('gives the New York date, whatever the machine time zone', () => {
    // 23:59:59 on Nov 21 in New York (EST, UTC-5) is already Nov 22 in UTC and in Adelaide.
    expect(localDateAt(at('2026-11-22T04:59:59Z'), 'America/New_York')).toBe('2026-11-21');
    expect(localDateAt(at('2026-11-22T05:00:00Z'), 'America/New_York')).toBe('2026-11-22');
  });

  it('follows daylight saving time (EDT is UTC-4)', () => {
    expect(localDateAt(at('2026-07-02T03:59:59Z'), 'America/New_York')).toBe('2026-07-01');
    expect(localDateAt(at('2026-07-02T04:00:00Z'), 'America/New_York')).toBe('2026-07-02');
  });
});

describe('localTimeAt', () => {
  it('gives the New York time of day on a 24-hour clock, whatever the machine time zone', () => {
    expect(localTimeAt(at('2027-01-01T00:00:05Z'), 'America/New_York')).toBe('19:00:05');
    expect(localTimeAt(at('2026-11-22T04:59:59Z'), 'America/New_York')).toBe('23:59:59');
    expect(localTimeAt(at('2026-11-22T05:00:00Z'), 'America/New_York')).toBe('00:00:00');
    expect(localTimeAt(at('2026-07-01T13:07:09Z'), 'America/New_York')).toBe('09:07:09'); // EDT
  });
});

describe('instantAt', () => {
  it('finds midnight and the close time on an ordinary day', () => {
    expect(instantAt('2026-11-21', { hours: 0, minutes: 0 }, 'America/New_York')).toEqual(at('2026-11-21T05:00:00Z'));
    expect(instantAt('2026-11-21', { hours: 20, minutes: 0 }, 'America/New_York')).toEqual(at('2026-11-22T01:00:00Z'));
  });

  it('on the spring-forward night, a skipped wall time becomes the moment of the jump', () => {
    // 2026-03-08: New York clocks go from 01:59:59 EST to 03:00:00 EDT.
    expect(instantAt('2026-03-08', { hours: 2, minutes: 30 }, 'America/New_York')).toEqual(at('2026-03-08T07:00:00Z'));
    expect(instantAt('2026-03-08', { hours: 3, minutes: 0 }, 'America/New_York')).toEqual(at('2026-03-08T07:00:00Z'));
  });

  it('on the fall-back night, a repeated wall time is its first occurrence', () => {
    // 2026-11-01: 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
    expect(instantAt('2026-11-01', { hours: 1, minutes: 30 }, 'America/New_York')).toEqual(at('2026-11-01T05:30:00Z'));
  });

  it('handles zones whose clocks change at midnight itself', () => {
    // Havana skips from 23:59:59 to 01:00 on 2026-03-08: that day starts at 01:00 local.
    expect(instantAt('2026-03-08', { hours: 0, minutes: 0 }, 'America/Havana')).toEqual(at('2026-03-08T05:00:00Z'));
    // ... and goes from 00:59:59 back to 00:00 on 2026-11-01: the first midnight counts.
    expect(instantAt('2026-11-01', { hours: 0, minutes: 0 }, 'America/Havana')).toEqual(at('2026-11-01T04:00:00Z'));
  });
});

describe('votingDayAt: the close time', () => {
  it('is open at 19:59 and closed from 20:00 in New York', () => {
    const before = votingDayAt(at('2026-11-22T00:59:59.999Z'), NEW_YORK); // 19:59:59.999 EST
    const after = votingDayAt(at('2026-11-22T01:00:00Z'), NEW_YORK); // 20:00 EST
    expect(before.votingOpen).toBe(true);
    expect(after.votingOpen).toBe(false);
    expect(before.date).toBe('2026-11-21');
    expect(after.date).toBe('2026-11-21');
  });

  it('opens again at midnight with the next day', () => {
    const lastMinute = votingDayAt(at('2026-11-22T04:59:00Z'), NEW_YORK);
    const midnight = votingDayAt(at('2026-11-22T05:00:00Z'), NEW_YORK);
    expect(lastMinute).toMatchObject({ date: '2026-11-21', votingOpen: false });
    expect(midnight).toMatchObject({ date: '2026-11-22', votingOpen: true });
    expect(midnight.startsAt).toEqual(at('2026-11-22T05:00:00Z'));
    expect(lastMinute.endsAt).toEqual(midnight.startsAt);
  });

  it('uses a configured close time', () => {
    const site = { ...NEW_YORK, votingClosesAt: { hours: 15, minutes: 30 } };
    expect(votingDayAt(at('2026-11-21T20:29:00Z'), site).votingOpen).toBe(true);
    expect(votingDayAt(at('2026-11-21T20:30:00Z'), site).votingOpen).toBe(false);
  });

  it('has a 23-hour day when the clocks go forward', () => {
    const day = votingDayAt(at('2026-03-08T12:00:00Z'), NEW_YORK);
    expect(day.startsAt).toEqual(at('2026-03-08T05:00:00Z')); // midnight EST
    expect(day.closesAt).toEqual(at('2026-03-09T00:00:00Z')); // 20:00 EDT
    expect(day.endsAt.getTime() - day.startsAt.getTime()).toBe(23 * 3_600_000);
  });

  it('has a 25-hour day when the clocks go back', () => {
    const day = votingDayAt(at('2026-11-01T12:00:00Z'), NEW_YORK);
    expect(day.startsAt).toEqual(at('2026-11-01T04:00:00Z')); // midnight EDT
    expect(day.closesAt).toEqual(at('2026-11-02T01:00:00Z')); // 20:00 EST
    expect(day.endsAt.getTime() - day.startsAt.getTime()).toBe(25 * 3_600_000);
  });
});

describe('countdownAt', () => {
  it('counts down to the close time before 20:00', () => {
    expect(countdownAt(at('2026-11-21T15:00:00Z'), NEW_YORK)).toMatchObject({
      label: 'Time Left to Vote:',
      value: '10h 0m', // 10:00 EST
    });
    expect(countdownAt(at('2026-11-22T00:59:00Z'), NEW_YORK)).toMatchObject({
      label: 'Time Left to Vote:',
      value: '1m', // 19:59
    });
  });

  it('counts down to midnight from 20:00', () => {
    expect(countdownAt(at('2026-11-22T01:00:00Z'), NEW_YORK)).toMatchObject({
      label: 'Results live! Next poll in:',
      value: '4h 0m',
    });
    expect(countdownAt(at('2026-11-22T04:59:30Z'), NEW_YORK)).toMatchObject({
      label: 'Results live! Next poll in:',
      value: '1m',
    });
  });

  it('starts a fresh day at midnight', () => {
    expect(countdownAt(at('2026-11-22T05:00:00Z'), NEW_YORK)).toMatchObject({
      label: 'Time Left to Vote:',
      value: '20h 0m',
    });
  });

  it('counts real time across the daylight-saving changes', () => {
    // Midnight to 20:00 on the spring-forward day is 19 hours of real time ...
    expect(countdownAt(at('2026-03-08T05:00:00Z'), NEW_YORK).value).toBe('19h 0m');
    // ... and 21 hours on the fall-back day.
    expect(countdownAt(at('2026-11-01T04:00:00Z'), NEW_YORK).value).toBe('21h 0m');
  });
});

describe('formatDuration', () => {
  it('shows hours and minutes, or minutes alone under an hour, rounding minutes up', () => {
    expect(formatDuration(0)).toBe('0m');
    expect(formatDuration(1)).toBe('1m');
    expect(formatDuration(59 * 60_000)).toBe('59m');
    expect(formatDuration(60 * 60_000)).toBe('1h 0m');
    expect(formatDuration(3 * 3_600_000 + 25 * 60_000)).toBe('3h 25m');
    expect(formatDuration(-5)).toBe('0m');
  });
});

describe('relativeDayLabel', () => {
  const now = at('2026-11-21T05:10:00Z'); // 00:10 on Nov 21 in New York

  it('labels by calendar day in the site time zone', () => {
    expect(relativeDayLabel('2026-11-21', now, 'America/New_York')).toBe('Today');
    expect(relativeDayLabel('2026-11-20', now, 'America/New_York')).toBe('Yesterday');
    expect(relativeDayLabel('2026-11-19', now, 'America/New_York')).toBe('2 days ago');
    expect(relativeDayLabel('2026-11-14', now, 'America/New_York')).toBe('7 days ago');
    expect(relativeDayLabel('2026-11-13', now, 'America/New_York')).toBe('November 13, 2026');
  });

  it('counts whole days across both daylight-saving changes', () => {
    const afterFallBack = at('2026-11-02T15:00:00Z');
    expect(relativeDayLabel('2026-11-01', afterFallBack, 'America/New_York')).toBe('Yesterday');
    expect(relativeDayLabel('2026-10-31', afterFallBack, 'America/New_York')).toBe('2 days ago');
    const afterSpringForward = at('2026-03-09T04:30:00Z'); // 00:30 EDT on Mar 9
    expect(relativeDayLabel('2026-03-08', afterSpringForward, 'America/New_York')).toBe('Yesterday');
    expect(relativeDayLabel('2026-03-02', afterSpringForward, 'America/New_York')).toBe('7 days ago');
  });

  it('shows a future date in full', () => {
    expect(relativeDayLabel('2026-11-25', now, 'America/New_York')).toBe('November 25, 2026');
  });
});

describe('calendar helpers', () => {
  it('adds days across month, year and leap-day boundaries', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(30);
    expect(daysBetween('2026-11-21', '2026-11-14')).toBe(-7);
  });

  it('recognises real dates and times only', () => {
    expect(isLocalDate('2028-02-29')).toBe(true);
    expect(isLocalDate('2026-02-29')).toBe(false);
    expect(isLocalDate('2026-13-01')).toBe(false);
    expect(isLocalDate('2026-1-01')).toBe(false);
    expect(parseTimeOfDay('20:00')).toEqual({ hours: 20, minutes: 0 });
    expect(parseTimeOfDay('07:05')).toEqual({ hours: 7, minutes: 5 });
    for (const bad of ['24:00', '7:00', '20:60', '20:00:00', 'noon']) expect(parseTimeOfDay(bad)).toBeNull();
    expect(isValidTimeZone('America/New_York')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});

describe('formatClockTime', () => {
  it('reads a time of day on a 12-hour clock', () => {
    expect(formatClockTime({ hours: 20, minutes: 0 })).toBe('8:00 PM');
    expect(formatClockTime({ hours: 0, minutes: 30 })).toBe('12:30 AM');
    expect(formatClockTime({ hours: 12, minutes: 5 })).toBe('12:05 PM');
    expect(formatClockTime({ hours: 9, minutes: 45 })).toBe('9:45 AM');
  });
});

describe('formatLocalDate', () => {
  it('writes each month of the year as en-US Intl does, without loading it', () => {
    const intl = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });
    for (let month = 1; month <= 12; month += 1) {
      const date = `2026-${String(month).padStart(2, '0')}-0${(month % 9) + 1}`;
      expect(formatLocalDate(date)).toBe(intl.format(new Date(`${date}T00:00:00Z`)));
    }
  });
});
