import type { ActivePoll } from '../../../../shared/api.js';
import { TimeLeftBadge } from './countdown.js';

export function VotingForm({
  poll,
  pendingOption,
  onVote,
  onShare,
}: {
  poll: ActivePoll;
  /** The option being sent, while it is. */
  pendingOption: number | null;
  onVote: (optionIndex: number) => void;
  onShare: () => void;
}) {
  return (
    <>
      <div className="poll-card__options" role="group" aria-labelledby="poll-question">
        {poll.options.map((option, index) => (
          <button
            key={option}
            type="button"
            className="poll-card__option"
            disabled={pendingOption !== null}
            aria-busy={pendingOption === index}
            onClick={() => onVote(index)}
          >
            {option}
            {pendingOption === index && <span className="poll-card__sending"> · Voting…</span>}
          </button>
        ))}
      </div>
      <div className="poll-card__footer">
        <TimeLeftBadge />
        <button type="button" className="button button--quiet" onClick={onShare}>
          Share
        </button>
      </div>
    </>
  );
}
