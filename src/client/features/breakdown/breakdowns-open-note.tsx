/** Before the close, under today's results: when the breakdowns open (never live, so nobody watches a small group fill). */
import { closeTimeLabel } from '../../../shared/time-labels.js';
import { siteClock } from '../../lib/site-config.js';
import './breakdown.css';

export function BreakdownsOpenNote() {
  return (
    <p className="breakdowns-open">
      Breakdowns by role, grade and region open when voting closes at {closeTimeLabel(siteClock)}.
    </p>
  );
}
