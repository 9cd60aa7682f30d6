import { localDateAt } from '../../../shared/time.js';
import { METHODS } from '../../../shared/methods.js';
import { siteClock, siteConfig } from '../../lib/site-config.js';
import { Link } from '../../lib/router.js';
import { useNow } from '../../lib/use-now.js';
import { ThemePicker } from './theme-picker.js';

export function SiteFooter({ wide = false }: { wide?: boolean }) {
  const container = wide ? 'container container--wide' : 'container';
  const now = useNow(60_000);
  return (
    <footer className="site-footer">
      <nav className={`${container} site-footer__links`} aria-label="About this site">
        <Link to="/faq">FAQ</Link>
        <Link to="/terms">Terms of Service</Link>
        <Link to="/privacy">Privacy &amp; Cookies</Link>
        <Link to={METHODS.path}>{METHODS.footerLabel}</Link>
        {/* Drawn by the server (GET /api), not a screen of the app: a plain link. */}
        <a href="/api">API</a>
        {siteConfig.brandUrl && (
          <a href={siteConfig.brandUrl} target="_blank" rel="noopener noreferrer">
            {siteConfig.brandName ?? new URL(siteConfig.brandUrl).hostname}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        )}
      </nav>
      <div className={container}>
        <ThemePicker />
      </div>
      <p className={`${container} site-footer__note`}>
        © {localDateAt(now, siteClock.timeZone).slice(0, 4)} {siteConfig.siteName}. Votes are anonymous.
      </p>
    </footer>
  );
}
