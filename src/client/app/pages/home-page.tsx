/** The main page: today's poll, the archive or the suggestion form, by ?view=. */
import { BottomNav } from '../../components/layout/bottom-nav.js';
import { useQuery } from '@tanstack/react-query';
import { PAGE_TITLES, todayDescription } from '../../../shared/page-head.js';
import type { MainView } from '../../../shared/page-query.js';
import { activePollQuery } from '../../api/get-active-poll.js';
import { usePageHead } from '../../components/layout/page-shell.js';
import { SiteFooter } from '../../components/layout/site-footer.js';
import { SiteHeader } from '../../components/layout/site-header.js';
import { StatsStrip } from '../../features/stats/components/stats-strip.js';
import { SuggestionSection } from '../../features/suggest/components/suggestion-form.js';
import { siteConfig } from '../../lib/site-config.js';
import { lazyPart } from '../../lib/lazy-part.js';
import { TodayPoll } from './today-poll.js';

/** The archive tab: loaded when first shown (suspending the screen, as a lazy page does), as today's page does not draw it. */
const ArchiveView = lazyPart(
  'features/archive/components/archive-view.tsx',
  () => import('../../features/archive/components/archive-view.js'),
);

export function HomePage({ view, showAdminTab }: { view: Exclude<MainView, 'admin'>; showAdminTab: boolean }) {
  // Today's head is today's question, as the server writes it; the other views have their own.
  const { data: poll } = useQuery({ ...activePollQuery, enabled: view === 'today' });
  const today = view === 'today' && poll ? poll : null;
  usePageHead(view === 'today' ? (today?.question ?? null) : PAGE_TITLES[view], {
    description: today ? todayDescription(today, today.votingOpen, today.totalVotes) : undefined,
    path: view === 'today' ? '/' : `/?view=${view}`,
  });
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <SiteHeader />
      <main id="content" className="container home">
        {view === 'today' && (
          <>
            <div className="welcome-banner">
              <p className="welcome-banner__title">
                <strong>Welcome to {siteConfig.siteName}!</strong>
              </p>
              <p>One education hot take a day. Vote anonymously in seconds and see where colleagues stand.</p>
            </div>
            <TodayPoll />
            <StatsStrip />
            <SuggestionSection collapsed />
          </>
        )}
        {view === 'archive' && <ArchiveView />}
        {view === 'suggest' && <SuggestionSection collapsed={false} />}
      </main>
      <SiteFooter />
      <BottomNav current={view} showAdmin={showAdminTab} />
    </>
  );
}
