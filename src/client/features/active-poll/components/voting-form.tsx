import { useState } from 'react';
import type { ActivePoll } from '../../../../shared/api.js';
import { TimeLeftBadge } from './countdown.js';

/**
 * The option an embed's "Vote on …" link picked (`/?vote=INDEX&poll=N`), if it is one of this
 * poll's: the embed may be older than today's poll, so a link made for another poll picks nothing.
 */
function pickFromLink(poll: ActivePoll): number | null {
  const params = new URLSearchParams(window.location.search);
  const vote = params.get('vote');
  if (vote === null || !/^\d{1,2}$/.test(vote) || Number(vote) >= poll.options.length) return null;
  const pollNumber = params.get('poll');
  if (pollNumber !== null && pollNumber !== String(poll.pollNumber)) return null;
  return Number(vote);
}

/** Takes the pick out of the address, so a reload or a shared link does not carry it. */
function forgetPick() {
  const url = new URL(window.location.href);
  url.searchParams.delete('vote');
  url.searchParams.delete('poll');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}

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
  // A link's pick is shown and confirmed here, never cast on its own.
  const [picked, setPicked] = useState(() => pickFromLink(poll));
  const pickedLabel = picked === null ? undefined : poll.options[picked];
  return (
    <>
      {pickedLabel !== undefined && picked !== null && (
        <div className="poll-card__confirm" role="group" aria-labelledby="vote-confirm-title">
          <p id="vote-confirm-title" className="poll-card__confirm-title">
            Confirm your vote: <strong>“{pickedLabel}”</strong>
          </p>
          <div className="poll-card__confirm-actions">
            <button
              type="button"
              className="button button--primary"
              // The visitor came here to do exactly this: the confirmation takes the focus.
              autoFocus
              disabled={pendingOption !== null}
              onClick={() => {
                forgetPick();
                onVote(picked);
              }}
            >
              Vote “{pickedLabel}”
            </button>
            <button
              type="button"
              className="button button--quiet"
              onClick={() => {
                forgetPick();
                setPicked(null);
              }}
            >
              Choose another
            </button>
          </div>
        </div>
      )}
      <div className="poll-card__options" role="group" aria-labelledby="poll-question">
        {poll.options.map((option, index) => (
          <button
            key={option}
            type="button"
            className={picked === index ? 'poll-card__option poll-card__option--picked' : 'poll-card__option'}
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
