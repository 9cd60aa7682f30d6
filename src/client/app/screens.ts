/** Which screen an address shows (spec section 2): the one place the app's routes are read. */
import { parsePollPath, pollPath } from '../../shared/poll-links.js';
import type { MainView } from '../components/layout/bottom-nav.js';

const VIEWS = new Set<MainView>(['today', 'archive', 'suggest', 'admin']);

export type Screen =
  | { kind: 'redirect'; to: string }
  | { kind: 'home'; view: Exclude<MainView, 'admin'>; showAdminTab: boolean }
  | { kind: 'faq' | 'terms' | 'privacy' | 'admin' | 'not-found' }
  | { kind: 'poll'; pollNumber: number };

export function screenOf(rawPath: string, search: URLSearchParams): Screen {
  const pathname = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  const redirect = search.get('redirect');
  const requested = search.get('view') as MainView | null;
  const view: MainView = requested && VIEWS.has(requested) ? requested : 'today';

  // ?redirect=poll-N rewrites the address to /poll-N; ?view=admin goes to /admin.
  const redirectTo = redirect === null ? null : parsePollPath(`/${redirect}`);
  if (redirectTo !== null) return { kind: 'redirect', to: pollPath(redirectTo) };
  if (pathname === '/' && view === 'admin') return { kind: 'redirect', to: '/admin' };

  if (pathname === '/') {
    return {
      kind: 'home',
      view: view === 'admin' ? 'today' : view,
      showAdminTab: search.get('admin') === 'true',
    };
  }
  if (pathname === '/faq' || pathname === '/terms' || pathname === '/privacy' || pathname === '/admin') {
    return { kind: pathname.slice(1) as 'faq' | 'terms' | 'privacy' | 'admin' };
  }
  const pollNumber = parsePollPath(pathname);
  return pollNumber === null ? { kind: 'not-found' } : { kind: 'poll', pollNumber };
}
