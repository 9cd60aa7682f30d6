import type { ActivePoll } from '../../../../shared/api.js';
import { votePath } from '../../../../shared/ssr.js';
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
      {/* A real form: without scripts the browser posts the vote itself (the server answers with
          the page again); with them, each button sends it through the API instead. */}
      <form method="post" action={votePath(poll.id)}>
        <div className="poll-card__options" role="group" aria-labelledby="poll-question">
          {poll.options.map((option, index) => (
            <button
              key={option}
              type="submit"
              name="option"
              value={index}
              className="poll-card__option"
              disabled={pendingOption !== null}
              aria-busy={pendingOption === index}
              onClick={(event) => {
                event.preventDefault();
                onVote(index);
              }}
            >
              {option}
              {pendingOption === index && <span className="poll-card__sending"> · Voting…</span>}
            </button>
          ))}
        </div>
      </form>
      <div className="poll-card__footer">
        <TimeLeftBadge />
        <button type="button" className="button button--quiet" onClick={onShare}>
          Share
        </button>
      </div>
    </>
  );
}
