import { WEEKDAY_NAMES, type ReminderSettings } from '../../../shared/reminders.js';

/** "weekdays", "every day", "Mondays and Thursdays". */
export function daysText(days: readonly number[]): string {
  const key = days.join('');
  if (key === '12345') return 'weekdays';
  if (key === '1234567') return 'every day';
  const names = days.map((day) => `${WEEKDAY_NAMES[day - 1] ?? ''}s`);
  const consecutive = days.every((day, i) => i === 0 || day === (days[i - 1] ?? 0) + 1);
  if (consecutive && days.length >= 3) return `${names[0] ?? ''} to ${names.at(-1) ?? ''}`;
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}` : (names[0] ?? '');
}

/** "Reminders on: weekdays at 15:30 (Europe/London)." */
export const reminderSummary = ({ days, timeOfDay, timeZone, pausedUntil }: ReminderSettings) =>
  `Reminders on: ${daysText(days)} at ${timeOfDay} (${timeZone})${pausedUntil ? `, paused until ${pausedUntil}` : ''}.`;
