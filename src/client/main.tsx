import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { setNonce } from 'get-nonce';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { STYLE_NONCE_META_NAME } from '../shared/site-config.js';
import { SSR_STATE_ELEMENT_ID, type SsrState } from '../shared/ssr.js';
import { newQueryClient } from './app/query-client.js';
import { Root } from './app/root.js';
import './styles/base.css';
import './components/layout/layout.css';

// The dialogs' scroll lock adds a <style> element; the page's CSP lets it in with this nonce.
const nonce = document.querySelector<HTMLMetaElement>(`meta[name="${STYLE_NONCE_META_NAME}"]`)?.content;
if (nonce && !nonce.startsWith('__')) setNonce(nonce);

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

const root = document.getElementById('root');
if (root) {
  const queryClient = newQueryClient();
  const state = readServerState();
  if (state && root.firstChild) {
    // The server drew the page: take it over with the data it was drawn with, fetching nothing again.
    hydrate(queryClient, state.queries as DehydratedState);
    // As a transition, React renders the hydration in slices and yields between them, rather
    // than in one task for the whole page that a tap would wait behind.
    startTransition(() => {
      hydrateRoot(root, <Root queryClient={queryClient} renderTime={state.now} />);
    });
  } else {
    createRoot(root).render(<Root queryClient={queryClient} />);
  }
}
