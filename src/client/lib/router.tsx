/**
 * A router for a handful of screens: the address is the state, links push history entries,
 * and the back button works. No library: the whole app has seven routes.
 */
import { createContext, useContext, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const CHANGE = 'app:locationchange';

function subscribe(onChange: () => void) {
  window.addEventListener('popstate', onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(CHANGE, onChange);
  };
}

const snapshot = () => window.location.pathname + window.location.search;

/** The address being drawn on the server (path and query); null in the browser. */
const ServerLocation = createContext<string | null>(null);
export const ServerLocationProvider = ServerLocation.Provider;

/**
 * The current path and query, re-rendering when they change. On the server, the address being
 * drawn; in the browser, the page's own, which is the same one while the page hydrates.
 */
export function useLocation(): { pathname: string; search: URLSearchParams } {
  const serverLocation = useContext(ServerLocation);
  const current = useSyncExternalStore(subscribe, snapshot, () => serverLocation ?? snapshot());
  return parseLocation(current);
}

/**
 * The path and query of an address on this site (`/poll-3?x=1`), read as a path: read as a
 * link, `//foo` would be another host's address, and `//` no address at all (an error). The
 * server may also be asked for a whole address (`GET http://host/x`), read as one.
 */
export function parseLocation(location: string): { pathname: string; search: URLSearchParams } {
  const url = location.startsWith('/') ? new URL(`http://localhost${location}`) : new URL(location, 'http://localhost');
  return { pathname: url.pathname, search: url.searchParams };
}

export function navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(CHANGE));
  if (!replace) {
    window.scrollTo({ top: 0 });
    scrollToAnchor(new URL(to, window.location.href).hash);
  }
}

/** How long a link to a part of a page (`/faq#honest-results`) waits for that part to be drawn. */
const ANCHOR_WAIT_MS = 5000;

/**
 * Brings the element a link's `#id` names into view, as the browser does on a page load. The
 * screen may not hold it yet (its code is still loading, lazy-part.tsx), so it is looked for
 * at each frame until it is there, from the frame after the new screen's.
 */
function scrollToAnchor(hash: string) {
  const id = hash.slice(1);
  if (!id) return;
  const until = performance.now() + ANCHOR_WAIT_MS;
  const look = () => {
    const target = document.getElementById(id);
    if (target) target.scrollIntoView();
    else if (performance.now() < until) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

/** An ordinary link that navigates in place; new-tab and modified clicks behave as usual. */
export function Link({ to, onClick, ...props }: LinkProps) {
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    if (props.target && props.target !== '_self') return;
    event.preventDefault();
    navigate(to);
  }
  return <a href={to} onClick={handleClick} {...props} />;
}
