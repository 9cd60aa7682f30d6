import { useState } from 'react';
import type { ActivePoll } from '../../../../shared/api.js';
import { readPageQuery } from '../../../../shared/page-query.js';
import { votePath } from '../../../../shared/ssr.js';
import { navigate, useLocation } from '../../../lib/router.js';
import { VOTE_CHECKING, VOTE_SENDING } from '../vote-wording.js';
import { TimeLeftBadge } from './countdown.js';

/**
 * The option an embed's "Vote on …" link picked (`/?vote=INDEX&poll=N`), if it is one of this
 * poll's: the embed may be older than today's poll, so a link made for another poll picks nothing.
 * Read from the router's address, so the server draws the same confirmation the browser does.
 */
function pickFromLink(poll: ActivePoll, search: URLSearchParams): number | null {
  const { pick } = readPageQuery(search);
  if (!pick || pick.optionIndex >= poll.options.length) return null;
  if (pick.pollNumber !== null && pick.pollNumber !== poll.pollNumber) return null;
  return pick.optionIndex;
}

/** Takes the pick out of the address, so a reload or a shared link does not carry it. */
function forgetPick({ pathname, search }: { pathname: string; search: URLSearchParams }) {
  const rest = new URLSearchParams(search);
  rest.delete('vote');
  rest.delete('poll');
  const query = rest.toString();
  navigate(`${pathname}${query ? `?${query}` : ''}`, { replace: true });
}

export function VotingForm({
  poll,
  pendingOption,
  checking = false,
  onVote,
  onShare,
}: {
  poll: ActivePoll;
  /** The option being sent, while it is. */
  pendingOption: number | null;
  /** The pending vote waits on its proof of work. */
  checking?: boolean;
  onVote: (optionIndex: number) => void;
  onShare: () => void;
}) {
  const location = useLocation();
  const { search } = location;
  // A link's pick is shown and confirmed here, never cast on its own.
  const [declined, setDeclined] = useState(false);
  const picked = declined ? null : pickFromLink(poll, search);
  const pickedLabel = picked === null ? undefined : poll.options[picked];
  return (
    <>
      {/* A real form: without scripts the browser posts the vote itself (the server answers with
          the page again); with them, each button sends it through the API instead. */}
      <form method="post" action={votePath(poll.id)}>
        {pickedLabel !== undefined && picked !== null && (
          <div className="poll-card__confirm" role="group" aria-labelledby="vote-confirm-title">
            <p id="vote-confirm-title" className="poll-card__confirm-title">
              Confirm your vote: <strong>“{pickedLabel}”</strong>
            </p>
            <div className="poll-card__confirm-actions">
              <button
                type="submit"
                name="option"
                value={picked}
                className="button button--primary"
                // The visitor came here to do exactly this: the confirmation takes the focus.
                autoFocus
                disabled={pendingOption !== null}
                onClick={(event) => {
                  event.preventDefault();
                  forgetPick(location);
                  onVote(picked);
                }}
              >
                Vote “{pickedLabel}”
              </button>
              <button
                type="button"
                className="button button--quiet"
                onClick={() => {
                  forgetPick(location);
                  setDeclined(true);
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
              type="submit"
              name="option"
              value={index}
              className={picked === index ? 'poll-card__option poll-card__option--picked' : 'poll-card__option'}
              disabled={pendingOption !== null}
              aria-busy={pendingOption === index}
              onClick={(event) => {
                event.preventDefault();
                onVote(index);
              }}
            >
              {option}
              {pendingOption === index && (
                <span className="poll-card__sending"> · {checking ? VOTE_CHECKING : VOTE_SENDING}</span>
              )}
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
