/**
 * "3 votes set aside after review", under a poll's total wherever the app shows results,
 * linking to the FAQ's "How we keep results honest"; nothing when no vote was set aside.
 */
import { setAsideNote } from '../../../shared/results.js';
import { HONEST_RESULTS } from '../../../shared/honest-results.js';
import { Link } from '../../lib/router.js';
import './chart.css';

/** The note as a link alone, for a sentence that already says something about the votes. */
export function SetAsideLink({ setAsideVotes }: { setAsideVotes: number }) {
  const note = setAsideNote(setAsideVotes);
  return note === null ? null : <Link to={HONEST_RESULTS.path}>{note}</Link>;
}

/** The note as a line of its own. */
export function SetAsideNote({ setAsideVotes, className }: { setAsideVotes: number; className?: string }) {
  if (setAsideNote(setAsideVotes) === null) return null;
  return (
    <p className={className ? `set-aside-note ${className}` : 'set-aside-note'}>
      <SetAsideLink setAsideVotes={setAsideVotes} />
    </p>
  );
}
