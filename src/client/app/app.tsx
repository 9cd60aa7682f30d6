/** Which screen the address shows (screens.ts). */
import { Suspense, useEffect } from 'react';
import { useActivePoll } from '../api/get-active-poll.js';
import { navigate, useLocation } from '../lib/router.js';
import { HomePage } from './pages/home-page.js';
import { screenOf } from './screens.js';
import { lazyPart } from '../lib/lazy-part.js';

const NotFoundPage = lazyPart('app/pages/not-found-page.tsx', () => import('./pages/not-found-page.js'));
const FaqPage = lazyPart('features/info-pages/faq-page.tsx', () => import('../features/info-pages/faq-page.js'));
const TermsPage = lazyPart('features/info-pages/terms-page.tsx', () => import('../features/info-pages/terms-page.js'));
const PrivacyPage = lazyPart(
  'features/info-pages/privacy-page.tsx',
  () => import('../features/info-pages/privacy-page.js'),
);
const RemindersPage = lazyPart(
  'features/reminders/reminders-page.tsx',
  () => import('../features/reminders/reminders-page.js'),
);
const MethodsPage = lazyPart(
  'features/info-pages/methods-page.tsx',
  () => import('../features/info-pages/methods-page.js'),
);
const TrackersScreen = lazyPart(
  'features/trackers/trackers-screen.tsx',
  () => import('../features/trackers/trackers-screen.js'),
);
const PastPollPage = lazyPart('app/pages/past-poll-page.tsx', () => import('./pages/past-poll-page.js'));
/** /admin: the admin panel, its parts loaded from a small staff-only part (staff-screen.tsx). */
const StaffScreen = lazyPart('app/pages/staff-screen.tsx', () => import('./pages/staff-screen.js'));

export function App() {
  const { pathname, search } = useLocation();
  const screen = screenOf(pathname, search);
  const redirectTo = screen.kind === 'redirect' ? screen.to : null;
  useEffect(() => {
    if (redirectTo) navigate(redirectTo, { replace: true });
  }, [redirectTo]);

  return (
    <Suspense fallback={<p className="container page-loading">Loading…</p>}>
      <HydratedMark />
      {screen.kind === 'home' ? (
        <HomePage view={screen.view} showAdminTab={screen.showAdminTab} />
      ) : screen.kind === 'faq' ? (
        <FaqPage />
      ) : screen.kind === 'terms' ? (
        <TermsPage />
      ) : screen.kind === 'privacy' ? (
        <PrivacyPage />
      ) : screen.kind === 'reminders' ? (
        <RemindersPage />
      ) : screen.kind === 'methods' ? (
        <MethodsPage />
      ) : screen.kind === 'admin' ? (
        <StaffScreen place={screen.place} />
      ) : screen.kind === 'poll' ? (
        <PollRoute pollNumber={screen.pollNumber} />
      ) : screen.kind === 'trackers' ? (
        <TrackersScreen slug={screen.slug} />
      ) : screen.kind === 'not-found' ? (
        <NotFoundPage />
      ) : null}
    </Suspense>
  );
}

/**
 * Marks the page as taken over by the app (`<html data-hydrated>`), once the screen's own code
 * has loaded and its markup hydrated: the server's page works alone until then, and tests and
 * styles can tell the two apart.
 */
function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  return null;
}

/** /poll-N: a past poll's page; today's number shows today's card, at its own address (/). */
function PollRoute({ pollNumber }: { pollNumber: number }) {
  const { data: active } = useActivePoll();
  const today = active?.pollNumber === pollNumber;
  useEffect(() => {
    if (today) navigate('/', { replace: true });
  }, [today]);
  return today ? (
    <HomePage view="today" showAdminTab={false} />
  ) : (
    <PastPollPage key={pollNumber} pollNumber={pollNumber} />
  );
}
