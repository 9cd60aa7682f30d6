import { countdownAt } from '../../../../shared/time.js';
import { siteClock } from '../../../lib/site-config.js';
import { useNow } from '../../../lib/use-now.js';

/** The countdown refreshes every minute (spec section 9). */
const COUNTDOWN_REFRESH_MS = 60_000;

export function useCountdown() {
  return countdownAt(useNow(COUNTDOWN_REFRESH_MS), siteClock);
}

/** "Time left to vote:" and the time until the close, on the voting card. */
export function TimeLeftBadge() {
  const { value } = useCountdown();
  return (
    <p className="time-left">
      Time left to vote: <strong>{value}</strong>
    </p>
  );
}

/** The countdown with its phase label: time left to vote, then time until the next poll. */
export function PhaseCountdown() {
  const { label, value } = useCountdown();
  return (
    <p className="phase-countdown">
      {label} <strong>{value}</strong>
    </p>
  );
}
