import { pollPath } from '../../../../shared/poll-links.js';
import { trackersPath } from '../../../../shared/trackers.js';
import { relativeDayLabel } from '../../../../shared/time-labels.js';
import { usePastPolls } from '../../../api/get-past-polls.js';
import { votesText } from '../../../components/chart/chart-labels.js';
import { SetAsideLink } from '../../../components/chart/set-aside-note.js';
import { TopicLinks } from '../../../components/ui/topic-links.js';
import { SEARCH_PATH } from '../../../../shared/topic-paths.js';
import { SEARCH_QUERY_MAX_LENGTH } from '../../../../shared/limits.js';
import { Link } from '../../../lib/router.js';
import { siteClock } from '../../../lib/site-config.js';
import { useNow } from '../../../lib/use-now.js';
import './archive.css';

/** "Past Hot Takes": every poll that has ended, newest first. */
export default function ArchiveView() {
  const { data: polls, isPending, isError } = usePastPolls();
  // Day labels ("Yesterday") move on at midnight; a minute's step is plenty.
  const now = useNow(60_000);
  return (
    <section aria-labelledby="archive-heading" className="archive">
      <h1 id="archive-heading" className="archive__heading">
        Past Hot Takes
        {polls && polls.length > 0 && <span className="archive__count">{polls.length}</span>}
      </h1>
      {/* A plain GET form: the server draws the results at their own address (/search?q=…), scripts or not. */}
      <form className="card archive__search" method="get" action={SEARCH_PATH} role="search">
        <label htmlFor="archive-search">Search past polls</label>
        <div className="archive__search-row">
          <input
            id="archive-search"
            className="input"
            name="q"
            type="search"
            maxLength={SEARCH_QUERY_MAX_LENGTH}
            placeholder="phones, workload, marking…"
            autoComplete="off"
          />
          <button type="submit" className="button button--secondary">
            Search
          </button>
        </div>
        <a href={SEARCH_PATH}>Browse by topic or year</a>
      </form>
      <p className="archive__trackers">
        Questions asked more than once: <Link to={trackersPath}>see how answers change over time</Link>.
      </p>
      {isPending ? (
        <p role="status" className="card">
          Loading Past Polls...
        </p>
      ) : isError ? (
        <p role="alert" className="card">
          Failed to load past polls. Please try again.
        </p>
      ) : polls.length === 0 ? (
        <div className="card archive__empty">
          <h2>No Poll History</h2>
          <p>No past polls yet</p>
        </div>
      ) : (
        <ol className="archive__list">
          {polls.map((poll) => (
            <li key={poll.id} className="card archive__item">
              <p className="archive__meta">
                <time dateTime={poll.liveDate}>{relativeDayLabel(poll.liveDate, now, siteClock.timeZone)}</time> · Poll
                #{poll.pollNumber}
              </p>
              <h2 className="archive__question">
                <Link to={pollPath(poll.pollNumber)}>{poll.question}</Link>
              </h2>
              <TopicLinks topics={poll.topics} />
              <div className="archive__footer">
                <span className="archive__totals">
                  <span className="archive__votes">{votesText(poll.totalVotes)}</span>
                  <SetAsideLink setAsideVotes={poll.setAsideVotes} />
                </span>
                <Link
                  to={pollPath(poll.pollNumber)}
                  className="button button--secondary"
                  aria-label={`See all votes for poll ${poll.pollNumber}`}
                >
                  SEE ALL VOTES
                </Link>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
