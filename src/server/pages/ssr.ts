/**
 * Loads the app's server entry (dist/ssr/entry-server.js, built by `vite build --ssr`), which
 * draws each page with React. Each app gets its own copy of the module (tests run several
 * sites, each with its own address, in one process); loads take turns, since the module reads
 * the site's configuration from a global while it loads.
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { SiteConfig } from '../../shared/site-config.js';
import { SSR_SITE_CONFIG_GLOBAL, type SsrRenderer, type SsrSiteConfigHolder } from '../../shared/ssr.js';

let loads: Promise<unknown> = Promise.resolve();
let loaded = 0;

/** The renderer built at `file`, for this site; null when there is no such build. */
export function loadSsrRenderer(file: string, site: SiteConfig): Promise<SsrRenderer | null> {
  if (!fs.existsSync(file)) return Promise.resolve(null);
  const load = loads.then(async () => {
    const holder = globalThis as unknown as SsrSiteConfigHolder;
    holder[SSR_SITE_CONFIG_GLOBAL] = site;
    try {
      loaded += 1;
      const module = (await import(`${pathToFileURL(file).href}?site=${loaded}`)) as { renderer: SsrRenderer };
      return module.renderer;
    } finally {
      holder[SSR_SITE_CONFIG_GLOBAL] = undefined;
    }
  });
  loads = load.catch(() => undefined);
  return load;
}
