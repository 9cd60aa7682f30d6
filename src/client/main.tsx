import type { DehydratedState } from '@tanstack/react-query';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { parsePollPath, UNKNOWN_POLL_NUMBER } from '../shared/poll-links.js';
import { SSR_STATE_ELEMENT_ID, type SsrState } from '../shared/ssr.js';
import { hydrateSettled, newQueryClient } from './app/query-client.js';
import { Root } from './app/root.js';
import './styles/base.css';
import './components/layout/layout.css';

/** What the server drew the page with, when it did: the data and the time. */
function readServerState(): SsrState | null {
  const text = document.getElementById(SSR_STATE_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as SsrState;
  } catch {
    return null;
  }
}

/**
 * An unknown poll number's page is drawn once, for UNKNOWN_POLL_NUMBER (server pages/client.ts),
 * and served for every number no poll has: its refusal is this address's.
 */
function asThisAddress(state: DehydratedState): DehydratedState {
  const pollNumber = parsePollPath(location.pathname);
  if (pollNumber === null || pollNumber === UNKNOWN_POLL_NUMBER) return state;
  for (const query of state.queries) {
    const [polls, number, drawnFor] = query.queryKey;
    if (polls === 'polls' && number === 'number' && drawnFor === UNKNOWN_POLL_NUMBER) {
      query.queryKey = ['polls', 'number', pollNumber];
      query.queryHash = JSON.stringify(query.queryKey);
    }
  }
  return state;
}

// The service worker (public/sw.js): reminders and closed polls offline. Registered once the
// page has loaded (this script may itself run after that), so it never competes with the page.
if ('serviceWorker' in navigator) {
  const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}

const root = document.getElementById('root');
if (root) {
  const queryClient = newQueryClient();
  const state = readServerState();
  if (state && root.firstChild) {
    // The server drew the page: take it over with the data it was drawn with, fetching nothing again.
    hydrateSettled(queryClient, asThisAddress(state.queries as DehydratedState));
    // As a transition, React renders the hydration in slices and yields between them, rather
    // than in one task for the whole page that a tap would wait behind.
    startTransition(() => {
      hydrateRoot(root, <Root queryClient={queryClient} renderTime={state.now} />);
    });
  } else {
    createRoot(root).render(<Root queryClient={queryClient} />);
  }
}
