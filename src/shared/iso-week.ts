/**
 * ISO 8601 weeks ("2026-W48": Monday to Sunday; week 1 holds the year's first Thursday), the
 * weekly digest's unit: its page is /week/2026-W48. Pure calendar arithmetic on site dates.
 */
import { addDays, localDateParts, type LocalDate } from './time.js';

export type IsoWeek = string;

const WEEK_PATTERN = /^(\d{4})-W(\d{2})$/;

/** 1 (Monday) to 7 (Sunday). */
export function isoWeekday(date: LocalDate): number {
  const [year, month, day] = localDateParts(date);
  return ((new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7) + 1;
}

/** The ISO week `date` falls in. */
export function isoWeekOf(date: LocalDate): IsoWeek {
  const thursday = addDays(date, 4 - isoWeekday(date));
  const [year] = localDateParts(thursday);
  const firstThursday = addDays(`${year}-01-04`, 4 - isoWeekday(`${year}-01-04`));
  const [, m1, d1] = localDateParts(firstThursday);
  const [, m2, d2] = localDateParts(thursday);
  const days = (Date.UTC(year, m2 - 1, d2) - Date.UTC(year, m1 - 1, d1)) / 86_400_000;
  return `${year}-W${String(Math.round(days / 7) + 1).padStart(2, '0')}`;
}

/** The Monday and Sunday of `week`; undefined when it is not a week that exists ("2026-W53"). */
export function isoWeekDays(week: IsoWeek): { monday: LocalDate; friday: LocalDate; sunday: LocalDate } | undefined {
  const match = WEEK_PATTERN.exec(week);
  if (!match) return undefined;
  const year = Number(match[1]);
  const number = Number(match[2]);
  const week1Monday = addDays(`${String(year).padStart(4, '0')}-01-04`, 1 - isoWeekday(`${year}-01-04`));
  const monday = addDays(week1Monday, (number - 1) * 7);
  if (number < 1 || isoWeekOf(monday) !== week) return undefined;
  return { monday, friday: addDays(monday, 4), sunday: addDays(monday, 6) };
}
