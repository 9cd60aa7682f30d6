/**
 * Today's poll: a skeleton while it loads, the voting card until this visitor votes (or voting
 * closes), then the results. What follows a vote or a press of Share (the subscribe invitation,
 * the share dialog) belongs to other features: the page wires them in through the callbacks.
 */
import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ActivePoll } from '../../../../shared/api.js';
import { preloadVote, useCastVote } from '../../../api/cast-vote.js';
import { ballotOnIntent } from '../../../api/get-ballot.js';
import { useActivePoll } from '../../../api/get-active-poll.js';
import { toast, tryAgain } from '../../../components/ui/toast.js';
import { errorMessage, isRefusal, isRetryable } from '../../../lib/api-client.js';
import { useLocation } from '../../../lib/router.js';
import { readPageQuery } from '../../../../shared/page-query.js';
import { VOTE_NOTICES } from '../../../../shared/ssr.js';
import { VOTE_CHECKING_ANNOUNCEMENT } from '../vote-wording.js';
import { lazyPart } from '../../../lib/lazy-part.js';
import { VotingForm } from './voting-form.js';
import './active-poll.css';

/**
 * The results (with their bars, charts and share buttons) load when first shown: on a voted
 * visitor's page, or after a vote, their code fetched on the first intent to vote.
 */
const ResultsView = lazyPart('features/active-poll/components/results-view.tsx', () => import('./results-view.js'));
const preloadResults = () => void import('./results-view.js');

export interface ActivePollCardProps {
  /**
   * This visitor's vote was counted. Return true when that opens something over the card, which
   * then takes focus, and call `returnFocus` when it closes; otherwise the card's heading takes
   * focus, since the option that was pressed is gone.
   */
  onVoted: (poll: ActivePoll, returnFocus: () => void) => boolean;
  /** A Share button was pressed: beside the options (before voting) or under the results. */
  onShare: (poll: ActivePoll, from: 'voting' | 'results') => void;
  /** What follows the results (the breakdowns, the question's earlier runs), from other features. */
  resultsExtras?: (poll: ActivePoll) => ReactNode;
}

export function ActivePollCard({ onVoted, onShare, resultsExtras }: ActivePollCardProps) {
  const { data: poll, isPending, isError, refetch } = useActivePoll();

  if (isPending) return <PollCardSkeleton />;
  // A failed refresh keeps the poll on screen: a vote lost to the network can be sent again.
  if (isError && poll === undefined) {
    return (
      <section className="card poll-card poll-card--message" aria-labelledby="poll-heading">
        <h1 id="poll-heading" className="poll-card__eyebrow">
          TODAY&apos;S HOT TAKE!
        </h1>
        <p role="alert">Failed to fetch active poll</p>
        <button type="button" className="button button--secondary" onClick={() => void refetch()}>
          Try again
        </button>
      </section>
    );
  }
  if (poll === null) {
    return (
      <section className="card poll-card poll-card--message" aria-labelledby="poll-heading">
        <h1 id="poll-heading">No Active Poll</h1>
        <p>Check back tomorrow for a new hot take!</p>
      </section>
    );
  }
  return <PollCard poll={poll} onVoted={onVoted} onShare={onShare} resultsExtras={resultsExtras} />;
}

/** Whether a poll card has been shown on this page load yet: the first shows from the navigation's start. */
let cardShown = false;

function PollCard({ poll, onVoted, onShare, resultsExtras }: ActivePollCardProps & { poll: ActivePoll }) {
  const castVote = useCastVote();
  // When the question was first shown (performance.now()'s clock): the page's first card from
  // the start of the page load, a card the app moved to later from then.
  const [shownAt] = useState(() => (cardShown ? performance.now() : 0));
  useEffect(() => {
    cardShown = true;
  }, []);
  const [pendingOption, setPendingOption] = useState<number | null>(null);
  /** The vote waits on its proof of work (the ballot asked for one). */
  const [checking, setChecking] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);

  const showResults = poll.userVoted || !poll.votingOpen;
  // A vote sent without scripts comes back here with its outcome in the address; a held vote
  // is told so on every visit (no results while voting is open: they would claim to include it).
  const { outcome } = readPageQuery(useLocation().search);
  const notice = poll.voteHeld ? VOTE_NOTICES.held : outcome === null ? null : VOTE_NOTICES[outcome];

  function vote(optionIndex: number) {
    setPendingOption(optionIndex);
    castVote.mutate(
      {
        pollId: poll.id,
        optionIndex,
        shownAt,
        onChecking: () => {
          setChecking(true);
          setAnnouncement(VOTE_CHECKING_ANNOUNCEMENT);
        },
        // A held vote counted by its proof, sent after it: its results are shown now.
        onCounted: () => setAnnouncement(VOTE_NOTICES.counted),
      },
      {
        onSuccess: (receipt) => {
          setAnnouncement(
            receipt.message === VOTE_NOTICES.held
              ? receipt.message
              : `Vote recorded for "${poll.options[optionIndex] ?? ''}". The results are shown below.`,
          );
          const focusHeading = () => headingRef.current?.focus();
          if (!onVoted(poll, focusHeading)) focusHeading();
        },
        onError: (error) => {
          toast({
            title: 'Just a heads up!',
            description: isRefusal(error, 'already-voted')
              ? "Just a heads up! You've already voted on this poll!"
              : errorMessage(error, 'Failed to record your vote. Please try again.'),
            variant: 'heads-up',
            action: isRetryable(error)
              ? tryAgain('Choose your answer again to vote.', () => vote(optionIndex))
              : undefined,
          });
        },
        onSettled: () => {
          setPendingOption(null);
          setChecking(false);
        },
      },
    );
  }

  // The first intent to vote (a pointer over the options, a touch, a focus) asks for the ballot.
  const intent = showResults
    ? undefined
    : () => {
        ballotOnIntent(poll.id, shownAt);
        preloadResults();
        void preloadVote();
      };
  return (
    <section
      className="card poll-card"
      aria-labelledby="poll-heading"
      onPointerOver={intent}
      onTouchStart={intent}
      onFocus={intent}
    >
      <h1 id="poll-heading" className="poll-card__eyebrow" tabIndex={-1} ref={headingRef}>
        TODAY&apos;S HOT TAKE!
      </h1>
      <h2 id="poll-question" className="poll-card__question">
        {poll.question}
      </h2>
      {poll.description && <p className="poll-card__description">{poll.description}</p>}
      {notice && (
        <p
          className={
            poll.voteHeld || outcome === 'counted' || outcome === 'held'
              ? 'poll-card__notice'
              : 'poll-card__notice poll-card__notice--refused'
          }
        >
          {notice}
        </p>
      )}
      {poll.results === null && poll.voteHeld ? null : showResults ? (
        <>
          <Suspense fallback={null}>
            <ResultsView poll={poll} onShare={() => onShare(poll, 'results')} />
          </Suspense>
          {resultsExtras?.(poll)}
        </>
      ) : (
        <VotingForm
          poll={poll}
          pendingOption={pendingOption}
          checking={checking}
          onVote={vote}
          onShare={() => onShare(poll, 'voting')}
        />
      )}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </section>
  );
}

/** The same height as the voting card, so nothing jumps when the poll arrives. */
function PollCardSkeleton() {
  return (
    <section className="card poll-card" aria-busy="true" aria-label="Loading today's poll">
      <div className="skeleton poll-card__skeleton-eyebrow" />
      <div className="skeleton poll-card__skeleton-question" />
      {[0, 1, 2, 3].map((i) => (
        <div key={i} className="skeleton poll-card__skeleton-option" />
      ))}
    </section>
  );
}
