/**
 * /poll-N: a past poll's final results, for everyone. Today's poll number leads back to today's
 * card, where results stay hidden until one has voted. What follows the results (breakdowns,
 * earlier runs) comes from other features, through `extras`.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { PollResults } from '../../../../shared/api.js';
import { pastPollDescription } from '../../../../shared/page-head.js';
import { printSheet } from '../../../../shared/poll-links.js';
import { formatLocalDate } from '../../../../shared/time-labels.js';
import { useActivePoll } from '../../../api/get-active-poll.js';
import { usePollResults } from '../../../api/get-poll-results.js';
import { CLOSED_POLL_LABEL_MAX, votesText } from '../../../components/chart/chart-labels.js';
import { LazyPieChart } from '../../../components/chart/lazy-pie-chart.js';
import { ResultBars } from '../../../components/chart/result-bars.js';
import { SetAsideNote } from '../../../components/chart/set-aside-note.js';
import { LazyWeightedLine } from '../../../components/chart/lazy-weighted-line.js';
import { PageShell } from '../../../components/layout/page-shell.js';
import { toast } from '../../../components/ui/toast.js';
import { Link, navigate } from '../../../lib/router.js';
import { pollUrl } from '../../../lib/site-config.js';
import { copyText } from '../../../lib/copy-text.js';
import { useHydrated } from '../../../lib/use-hydrated.js';
import './poll-page.css';
import { TopicLinks } from '../../../components/ui/topic-links.js';

const BACK = { to: '/?view=archive', label: 'Back to Past Hot Takes' };

export function PollPage({
  pollNumber,
  extras,
}: {
  pollNumber: number;
  /** Shown under the results card, once the poll has loaded. */
  extras?: (poll: PollResults) => ReactNode;
}) {
  const { data: poll, isPending, isError } = usePollResults(pollNumber);
  const { data: active } = useActivePoll();

  useEffect(() => {
    if (active && active.pollNumber === pollNumber) navigate('/', { replace: true });
  }, [active, pollNumber]);

  if (isPending) {
    return (
      <PageShell title={`Poll ${pollNumber}`} back={BACK}>
        <p role="status" className="card">
          Loading poll {pollNumber}...
        </p>
      </PageShell>
    );
  }
  if (isError) {
    return (
      <PageShell title="Poll Not Found" back={BACK} path={null}>
        <div className="card poll-page__missing">
          <h1>Poll Not Found</h1>
          <p>This poll could not be found</p>
          <Link to="/" className="button button--primary">
            Go Home
          </Link>
        </div>
      </PageShell>
    );
  }
  return (
    <PageShell title={poll.question} description={pastPollDescription(poll)} back={BACK}>
      <article className="card poll-page">
        <p className="poll-page__meta">
          Poll #{poll.pollNumber} · <time dateTime={poll.liveDate}>{formatLocalDate(poll.liveDate)}</time>
        </p>
        <h1 className="poll-page__question">{poll.question}</h1>
        {poll.description && <p className="poll-page__description">{poll.description}</p>}
        <TopicLinks topics={poll.topics} />
        <LazyPieChart results={poll.results} labelMax={CLOSED_POLL_LABEL_MAX} />
        <ResultBars results={poll.results} />
        <p className="poll-page__total">
          Total: <strong>{votesText(poll.totalVotes)}</strong>
        </p>
        <SetAsideNote setAsideVotes={poll.setAsideVotes} />
        <LazyWeightedLine weighted={poll.weighted} options={poll.options} />
        <div className="poll-page__footer">
          <p className="poll-page__closed">Poll closed</p>
          <span className="poll-page__actions">
            {/* The staff-room sheet is a page of its own, made by the server. */}
            <a className="button button--quiet" href={printSheet.path(poll.pollNumber)}>
              Print
            </a>
            <SharePollButton pollNumber={poll.pollNumber} question={poll.question} />
          </span>
        </div>
      </article>
      {extras?.(poll)}
    </PageShell>
  );
}

/**
 * The device's share sheet where there is one; else, or when the sheet fails, the link, copied,
 * with "Copied!" for 2 s. A failure names what the visitor asked for: sharing, or copying.
 */
function SharePollButton({ pollNumber, question }: { pollNumber: number; question: string }) {
  const [copied, setCopied] = useState(false);
  const hydrated = useHydrated();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const url = pollUrl(pollNumber);

  async function share() {
    const canShare = typeof navigator.share === 'function';
    if (canShare) {
      try {
        await navigator.share({ title: question, text: question, url });
        return;
      } catch (error) {
        if ((error as Error).name === 'AbortError') return; // the visitor closed the sheet
      }
    }
    try {
      await copyText(url);
      setCopied(true);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopied(false), 2000);
    } catch {
      toast({
        title: canShare ? 'Failed to share link. Please try again.' : 'Failed to copy link. Please try again.',
        variant: 'failure',
      });
    }
  }

  return (
    <>
      <button type="button" className="button button--secondary" onClick={() => void share()} disabled={!hydrated}>
        {copied ? 'Copied!' : 'Share'}
      </button>
      <span className="visually-hidden" role="status">
        {copied ? 'Link copied' : ''}
      </span>
    </>
  );
}
