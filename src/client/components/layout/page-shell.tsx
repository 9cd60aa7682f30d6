/** The frame of the pages outside the main app: header, a back link, the content, the footer. */
import { useEffect, type ReactNode } from 'react';
import { DEFAULT_DESCRIPTION } from '../../../shared/page-head.js';
import { siteConfig } from '../../lib/site-config.js';
import { Link, useLocation } from '../../lib/router.js';
import { SiteFooter } from './site-footer.js';
import { SiteHeader } from './site-header.js';

export function PageShell({
  title,
  description,
  path,
  children,
  back = { to: '/', label: 'Back to today' },
  wide = false,
}: {
  /** Shown in the browser tab. */
  title: string;
  /** The page's description, and its canonical path (null: none, for a page that does not exist). */
  description?: string;
  path?: string | null;
  children: ReactNode;
  back?: { to: string; label: string } | null;
  /** Room for a staff laptop screen rather than a phone's column. */
  wide?: boolean;
}) {
  usePageHead(title, { description, path });
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

/**
 * The head of the page shown: "Title · Site name" in the browser tab, the description and the
 * canonical link, as the server writes them for the same address (og/link-previews.ts), so
 * they follow moves inside the app.
 */
export function usePageHead(
  title: string | null,
  { description = DEFAULT_DESCRIPTION, path }: { description?: string | undefined; path?: string | null } = {},
) {
  const { pathname } = useLocation();
  const canonical = path === undefined ? pathname : path;
  useEffect(() => {
    document.title = title ? `${title} · ${siteConfig.siteName}` : siteConfig.siteName;
    document.querySelector('meta[name="description"]')?.setAttribute('content', description);
    let link = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    if (canonical === null) {
      link?.remove();
      return;
    }
    if (!link) {
      link = document.createElement('link');
      link.rel = 'canonical';
      document.head.append(link);
    }
    link.href = `${siteConfig.publicUrl}${canonical}`;
  }, [title, description, canonical]);
}
