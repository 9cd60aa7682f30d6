/** The main page: today's poll, the archive or the suggestion form, by ?view=. */
import { BottomNav, type MainView } from '../../components/layout/bottom-nav.js';
import { useDocumentTitle } from '../../components/layout/page-shell.js';
import { SiteFooter } from '../../components/layout/site-footer.js';
import { SiteHeader } from '../../components/layout/site-header.js';
import { ArchiveView } from '../../features/archive/components/archive-view.js';
import { StatsStrip } from '../../features/stats/components/stats-strip.js';
import { SuggestionSection } from '../../features/suggest/components/suggestion-form.js';
import { siteConfig } from '../../lib/site-config.js';
import { TodayPoll } from './today-poll.js';

const TITLES: Record<Exclude<MainView, 'admin'>, string | null> = {
  today: null,
  archive: 'Past Hot Takes',
  suggest: 'Suggest a Poll',
};

export function HomePage({ view, showAdminTab }: { view: Exclude<MainView, 'admin'>; showAdminTab: boolean }) {
  useDocumentTitle(TITLES[view]);
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
