/** The frame of the pages outside the main app: header, a back link, the content, the footer. */
import { useEffect, type ReactNode } from 'react';
import { siteConfig } from '../../lib/site-config.js';
import { Link } from '../../lib/router.js';
import { SiteFooter } from './site-footer.js';
import { SiteHeader } from './site-header.js';

export function PageShell({
  title,
  children,
  back = { to: '/', label: 'Back to today' },
  wide = false,
}: {
  /** Shown in the browser tab. */
  title: string;
  children: ReactNode;
  back?: { to: string; label: string } | null;
  /** Room for a staff laptop screen rather than a phone's column. */
  wide?: boolean;
}) {
  useDocumentTitle(title);
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <SiteHeader wide={wide} />
      <main id="content" className={wide ? 'container container--wide page-shell' : 'container page-shell'}>
        {back && (
          <Link to={back.to} className="page-shell__back">
            ← {back.label}
          </Link>
        )}
        {children}
      </main>
      <SiteFooter wide={wide} />
    </>
  );
}

/** "Title · Site name" in the browser tab while the page is shown. */
export function useDocumentTitle(title: string | null) {
  useEffect(() => {
    document.title = title ? `${title} · ${siteConfig.siteName}` : siteConfig.siteName;
  }, [title]);
}
