import { siteConfig } from '../../lib/site-config.js';
import { Link } from '../../lib/router.js';
import './layout.css';

/** The logo: back to today's poll and a clean address, from anywhere. */
export function SiteHeader({ wide = false }: { wide?: boolean }) {
  return (
    <header className="site-header">
      <div className={wide ? 'container container--wide site-header__inner' : 'container site-header__inner'}>
        <Link to="/" className="site-header__logo" aria-label={`${siteConfig.siteName}, today's poll`}>
          <svg className="site-header__mark" viewBox="0 0 64 64" aria-hidden="true">
            <rect width="64" height="64" rx="14" fill="#15803d" />
            <path d="M33 8c2 10 14 14 14 28a15 15 0 0 1-30 0c0-7 4-11 7-14 0 5 2 8 5 9-1-9 2-17 4-23z" fill="#fde047" />
          </svg>
          <span>{siteConfig.siteName}</span>
        </Link>
      </div>
    </header>
  );
}
