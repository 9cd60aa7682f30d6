/**
 * The app drawn on the server (built by `vite build --ssr` into dist/ssr): the server loads it
 * once, hands it each address with the data for the visitor being served, and gets back the
 * markup of #root and the query cache to hydrate from. Every page is drawn with its lazy parts
 * (prerender waits for them), so the first paint is the real page, not a skeleton.
 */
import { dehydrate, QueryClient } from '@tanstack/react-query';
// The edge build: the Node build keeps each render in an AsyncLocalStorage, and on Node 20 the
// first use of one turns on async hooks for every promise the server makes from then on.
import { prerender } from 'react-dom/static.edge';
import { jsonForScript, type SsrRenderer, type SsrRequest, type SsrState } from '../shared/ssr.js';
import { hydrateSettled, newQueryClient } from './app/query-client.js';
import { DrawnParts, LAZY_PART_MODULES } from './lib/lazy-part.js';
import { Root } from './app/root.js';
import { prefetchRoute } from './app/route-data.js';
// Lazy parts declared in modules that themselves load lazily (the charts, drawn inside the
// results and the past poll's page; the admin panel, inside the staff screen) are registered
// when their module first runs: run here, so that `lazyParts` below lists them from the start
// (lazy-part.test.ts checks none is missing).
import './components/chart/lazy-pie-chart.js';
import './components/chart/lazy-weighted-line.js';
import './app/pages/staff-screen.js';

async function render({ url, now, data }: SsrRequest) {
  const fetched = new QueryClient();
  await prefetchRoute(fetched, url, data);
  // Refusals (an unknown poll number) are drawn as the browser would draw them.
  const queries = dehydrate(fetched, { shouldDehydrateQuery: () => true, shouldRedactErrors: () => false });
  fetched.clear();
  // Drawn from the dehydrated cache, as the browser will hydrate: both see exactly the same data.
  const queryClient = newQueryClient();
  hydrateSettled(queryClient, queries);
  /** The page's markup, and the lazy parts drawn in it. */
  const draw = async () => {
    const drawn = new Set<string>();
    const page = (
      <DrawnParts value={drawn}>
        <Root queryClient={queryClient} serverLocation={url} renderTime={now} />
      </DrawnParts>
    );
    const { prelude } = await prerender(page, {
      // Every part inline, in order: nothing is moved into place by a script (the CSP allows none).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError: (error) => {
        errors.push(error);
      },
    });
    return { html: await new Response(prelude).text(), parts: [...drawn].sort() };
  };
  const errors: unknown[] = [];
  let drawing = await draw();
  // A lazy part met for the first time suspends, and React then writes scripts that move it into
  // place, which the CSP would block. Once loaded it draws at once: draw again.
  for (let tries = 0; tries < 3 && drawing.html.includes('<script'); tries++) drawing = await draw();
  queryClient.clear();
  if (errors.length > 0) throw errors[0];
  const state: SsrState = { queries, now };
  return { html: drawing.html, state: jsonForScript(state), parts: drawing.parts };
}

export const renderer: SsrRenderer = { render, lazyParts: [...LAZY_PART_MODULES].sort() };
