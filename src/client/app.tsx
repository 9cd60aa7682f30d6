/**
 * A first, deliberately small page: today's question, one button per option, the results
 * after voting. The full visitor app (archive, sharing, subscribing, stats) replaces it.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ActivePoll, ApiError } from '../shared/api.js';

type State = { kind: 'loading' } | { kind: 'ready'; poll: ActivePoll | null } | { kind: 'failed'; message: string };

async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { credentials: 'include', ...init });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new Error((body as ApiError | null)?.message ?? `${response.status}: ${response.statusText}`);
  return body as T;
}

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [notice, setNotice] = useState<string | null>(null);
  const notFound = !['/', '/index.html'].includes(window.location.pathname);

  const load = useCallback(() => {
    fetchJson<ActivePoll | null>('/api/polls/active').then(
      (poll) => setState({ kind: 'ready', poll }),
      (error: unknown) => setState({ kind: 'failed', message: (error as Error).message }),
    );
  }, []);
  useEffect(load, [load]);

  async function vote(poll: ActivePoll, optionIndex: number) {
    try {
      await fetchJson(`/api/polls/${poll.id}/vote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ optionIndex, voterEmail: '' }),
      });
      setNotice(null);
    } catch (error) {
      setNotice((error as Error).message);
    }
    load();
  }

  return (
    <main className="page">
      <header className="brand">Teacher Hot Take</header>
      {notFound ? (
        <section className="card">
          <h1>404 Page Not Found</h1>
          <a href="/">Go Home</a>
        </section>
      ) : state.kind === 'loading' ? (
        <section className="card" aria-busy="true">
          Loading today&apos;s poll…
        </section>
      ) : state.kind === 'failed' ? (
        <section className="card" role="alert">
          {state.message}
        </section>
      ) : state.poll === null ? (
        <section className="card">
          <h1>No Active Poll</h1>
          <p>Check back tomorrow for a new hot take!</p>
        </section>
      ) : (
        <PollCard poll={state.poll} onVote={(i) => void vote(state.poll as ActivePoll, i)} notice={notice} />
      )}
    </main>
  );
}

function PollCard({ poll, onVote, notice }: { poll: ActivePoll; onVote: (i: number) => void; notice: string | null }) {
  return (
    <section className="card" aria-labelledby="question">
      <p className="eyebrow">TODAY&apos;S HOT TAKE!</p>
      <h1 id="question" className="question">
        {poll.question}
      </h1>
      {poll.description && <p>{poll.description}</p>}
      {poll.results ? (
        <ul className="results" aria-live="polite">
          {poll.results.map((result, i) => (
            <li key={result.option} className={i === poll.userVoteOption ? 'mine' : undefined}>
              <span>{result.option}</span>
              <span>
                {result.percentage}% ({result.votes} {result.votes === 1 ? 'vote' : 'votes'})
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <div className="options">
          {poll.options.map((option, i) => (
            <button key={option} type="button" onClick={() => onVote(i)} disabled={!poll.votingOpen}>
              {option}
            </button>
          ))}
        </div>
      )}
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <p className="total">
        {poll.totalVotes} {poll.totalVotes === 1 ? 'vote' : 'votes'}
      </p>
    </section>
  );
}
