import type { MainView } from '../../../shared/page-query.js';
import { Link } from '../../lib/router.js';

const TABS: { view: MainView; label: string; to: string; icon: string }[] = [
  { view: 'today', label: 'Today', to: '/', icon: 'M12 3 2 11h3v9h5v-6h4v6h5v-9h3z' },
  { view: 'archive', label: 'Results', to: '/?view=archive', icon: 'M4 20V10h4v10zm6 0V4h4v16zm6 0v-7h4v7z' },
  { view: 'suggest', label: 'Suggest', to: '/?view=suggest', icon: 'M11 4h2v7h7v2h-7v7h-2v-7H4v-2h7z' },
];

const ADMIN_TAB = {
  view: 'admin' as const,
  label: 'Admin',
  to: '/admin',
  icon: 'M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5z',
};

/** Today, Results, Suggest; Admin only with ?admin=true (or on the admin view). */
export function BottomNav({ current, showAdmin }: { current: MainView; showAdmin: boolean }) {
  const tabs = showAdmin ? [...TABS, ADMIN_TAB] : TABS;
  return (
    <nav className="bottom-nav" aria-label="Main">
      <ul className="bottom-nav__list">
        {tabs.map((tab) => (
          <li key={tab.view}>
            <Link to={tab.to} className="bottom-nav__tab" aria-current={tab.view === current ? 'page' : undefined}>
              <svg viewBox="0 0 24 24" aria-hidden="true" className="bottom-nav__icon">
                <path d={tab.icon} fill="currentColor" />
              </svg>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
