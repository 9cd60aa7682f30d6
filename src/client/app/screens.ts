/** Which screen an address shows (spec section 2): the one place the app's routes are read. */
import { readPageQuery, type MainView } from '../../shared/page-query.js';
import { parseAdminPath, type AdminPlace } from '../../shared/admin-place.js';
import { parsePollPath, pollPath } from '../../shared/poll-links.js';

export type Screen =
  | { kind: 'redirect'; to: string }
  | { kind: 'home'; view: Exclude<MainView, 'admin'>; showAdminTab: boolean }
  | { kind: 'faq' | 'terms' | 'privacy' | 'methods' | 'reminders' | 'not-found' }
  | { kind: 'admin'; place: AdminPlace }
  | { kind: 'poll'; pollNumber: number }
  | { kind: 'trackers'; slug: string | null };

export function screenOf(rawPath: string, search: URLSearchParams): Screen {
  const pathname = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  const { redirect, view, adminTab } = readPageQuery(search);

  // ?redirect=poll-N rewrites the address to /poll-N; ?view=admin goes to /admin.
  if (redirect !== null) return { kind: 'redirect', to: pollPath(redirect) };
  if (pathname === '/' && view === 'admin') return { kind: 'redirect', to: '/admin' };

  if (pathname === '/') {
    return {
      kind: 'home',
      view: view === 'admin' ? 'today' : view,
      showAdminTab: adminTab,
    };
  }
  if (['/faq', '/terms', '/privacy', '/methods', '/reminders'].includes(pathname)) {
    return { kind: pathname.slice(1) as 'faq' | 'terms' | 'privacy' | 'methods' | 'reminders' };
  }
  // The server answers only slugs a tracker has (pages/client.ts); the page asks the API for it.
  if (pathname === '/trackers' || pathname.startsWith('/trackers/'))
    return { kind: 'trackers', slug: pathname.slice(10) || null };
  if (pathname === '/admin' || pathname.startsWith('/admin/')) {
    const place = parseAdminPath(pathname);
    return place ? { kind: 'admin', place } : { kind: 'not-found' };
  }
  const pollNumber = parsePollPath(pathname);
  return pollNumber === null ? { kind: 'not-found' } : { kind: 'poll', pollNumber };
}
