/** Which screen the address shows (spec section 2). */
import { lazy, Suspense, useEffect } from 'react';
import type { MainView } from '../components/layout/bottom-nav.js';
import { navigate, useLocation } from '../lib/router.js';
import { HomePage } from './pages/home-page.js';
import { NotFoundPage } from './pages/not-found-page.js';

const FaqPage = lazy(() => import('../features/info-pages/faq-page.js'));
const TermsPage = lazy(() => import('../features/info-pages/terms-page.js'));
const PrivacyPage = lazy(() => import('../features/info-pages/privacy-page.js'));
const PastPollPage = lazy(() => import('./pages/past-poll-page.js'));
const AdminPage = lazy(() => import('../features/admin/admin-page.js'));

const POLL_PATH = /^\/poll-([1-9]\d{0,15})$/;
const VIEWS = new Set<MainView>(['today', 'archive', 'suggest', 'admin']);

export function App() {
  const { pathname: rawPath, search } = useLocation();
  const pathname = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  const redirect = search.get('redirect');
  const requested = search.get('view') as MainView | null;
  const view: MainView = requested && VIEWS.has(requested) ? requested : 'today';

  // ?redirect=poll-N rewrites the address to /poll-N; ?view=admin goes to /admin.
  const redirectTo =
    redirect && /^poll-\d+$/.test(redirect) ? `/${redirect}` : pathname === '/' && view === 'admin' ? '/admin' : null;
  useEffect(() => {
    if (redirectTo) navigate(redirectTo, { replace: true });
  }, [redirectTo]);
  if (redirectTo) return null;

  const pollNumber = POLL_PATH.exec(pathname)?.[1];
  return (
    <Suspense fallback={<p className="container page-loading">Loading…</p>}>
      {pathname === '/' ? (
        <HomePage
          view={view === 'admin' ? 'today' : view}
          showAdminTab={search.get('admin') === 'true' || view === 'admin'}
        />
      ) : pathname === '/faq' ? (
        <FaqPage />
      ) : pathname === '/terms' ? (
        <TermsPage />
      ) : pathname === '/privacy' ? (
        <PrivacyPage />
      ) : pathname === '/admin' ? (
        <AdminPage />
      ) : pollNumber ? (
        <PastPollPage key={pollNumber} pollNumber={Number(pollNumber)} />
      ) : (
        <NotFoundPage />
      )}
    </Suspense>
  );
}
