/** Which screen an address shows (spec section 2): the one place the app's routes are read. */
import { readPageQuery, type MainView } from '../../shared/page-query.js';

export const POLL_PATH = /^\/poll-([1-9]\d{0,15})$/;

export type Screen =
  | { kind: 'redirect'; to: string }
  | { kind: 'home'; view: Exclude<MainView, 'admin'>; showAdminTab: boolean }
  | { kind: 'faq' | 'terms' | 'privacy' | 'admin' | 'not-found' }
  | { kind: 'poll'; pollNumber: number };

export function screenOf(rawPath: string, search: URLSearchParams): Screen {
  const pathname = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  const { redirect, view, adminTab } = readPageQuery(search);

  // ?redirect=poll-N rewrites the address to /poll-N; ?view=admin goes to /admin.
  if (redirect) return { kind: 'redirect', to: `/${redirect}` };
  if (pathname === '/' && view === 'admin') return { kind: 'redirect', to: '/admin' };

  if (pathname === '/') {
    return {
      kind: 'home',
      view: view === 'admin' ? 'today' : view,
      showAdminTab: adminTab,
    };
  }
  if (pathname === '/faq' || pathname === '/terms' || pathname === '/privacy' || pathname === '/admin') {
    return { kind: pathname.slice(1) as 'faq' | 'terms' | 'privacy' | 'admin' };
  }
  const pollNumber = POLL_PATH.exec(pathname)?.[1];
  return pollNumber ? { kind: 'poll', pollNumber: Number(pollNumber) } : { kind: 'not-found' };
}
