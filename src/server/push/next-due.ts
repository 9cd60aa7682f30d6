/**
 * When a teacher's next reminder is due: the first instant after `after` at which their own
 * wall clock shows their time, on one of their weekdays, not before the end of a pause. The
 * time zone is theirs, not the site's: 15:30 in London is 15:30 in London, summer and winter.
 */
import { addDays, instantAt, localDateAt, parseTimeOfDay, type LocalDate } from '../../shared/time.js';

export interface ReminderSchedule {
  timeOfDay: string;
  timeZone: string;
  /** ISO weekdays, 1 Monday to 7 Sunday. */
  days: readonly number[];
  pausedUntil: LocalDate | null;
}

/** Monday 1 to Sunday 7, of a calendar date. */
export function isoWeekday(date: LocalDate): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

export function nextDueAfter(after: Date, schedule: ReminderSchedule): Date | null {
  const time = parseTimeOfDay(schedule.timeOfDay);
  if (!time || schedule.days.length === 0) return null;
  let date = localDateAt(after, schedule.timeZone);
  if (schedule.pausedUntil !== null && schedule.pausedUntil > date) date = schedule.pausedUntil;
  // Eight days hold every weekday once after today's time has passed.
  for (let i = 0; i < 8; i++, date = addDays(date, 1)) {
    if (!schedule.days.includes(isoWeekday(date))) continue;
    const due = instantAt(date, time, schedule.timeZone);
    if (due.getTime() > after.getTime()) return due;
  }
  return null;
}
