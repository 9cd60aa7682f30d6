import { addDays, type LocalDate } from '../../shared/time.js';

/**
 * Consecutive days with a vote, ending today, or yesterday when there is no vote yet today
 * (the streak is still alive until today ends). Days are site-time-zone calendar days, so a
 * daylight-saving night neither breaks nor stretches a streak.
 *
 * @param daysWithVotes distinct days, newest first
 */
export function streakLength(daysWithVotes: readonly LocalDate[], today: LocalDate): number {
  let expected = daysWithVotes.includes(today) ? today : addDays(today, -1);
  let streak = 0;
  for (const day of daysWithVotes) {
    if (day > expected) continue; // a vote dated after today cannot extend today's streak
    if (day !== expected) break;
    streak += 1;
    expected = addDays(expected, -1);
  }
  return streak;
}
