/**
 * Parts of the app loaded the first time they are drawn (React.lazy), each named by its module:
 * its path under src/client, as the build's manifest names it. A lazy part's stylesheet comes
 * with its code, so the page's own stylesheet holds only what every page needs; a page drawn on
 * the server lists the parts it drew (DrawnParts), and the server writes their stylesheets into
 * that page (server/pages/page-styles.ts), so it paints styled before any script has run.
 */
import { createContext, createElement, lazy, useContext, type ComponentType } from 'react';

/** Set by the server entry while it draws a page: the parts drawn in it. */
export const DrawnParts = createContext<Set<string> | null>(null);

/** Every lazy part the app has, by module; the server checks each against the client build. */
export const LAZY_PART_MODULES = new Set<string>();

/**
 * A lazily loaded component, from `load` (`() => import('./x.js')`), whose module is `module`
 * (`'features/x.tsx'`, the path under src/client; lazy-part.test.ts checks the two agree).
 */
export function lazyPart<P extends object>(module: string, load: () => Promise<{ default: ComponentType<P> }>) {
  LAZY_PART_MODULES.add(module);
  const Lazy = lazy(load);
  function LazyPart(props: P) {
    useContext(DrawnParts)?.add(module);
    return createElement(Lazy, props);
  }
  LazyPart.displayName = `LazyPart(${module})`;
  return LazyPart;
}
