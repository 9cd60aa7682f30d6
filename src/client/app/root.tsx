/** The whole app as both sides draw it: the browser (main.tsx) and the server (entry-server.tsx). */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { ToastHost } from '../components/ui/toast-host.js';
import { ServerLocationProvider } from '../lib/router.js';
import { RenderTimeProvider } from '../lib/use-now.js';
import { App } from './app.js';

export function Root({
  queryClient,
  serverLocation = null,
  renderTime = null,
}: {
  queryClient: QueryClient;
  /** On the server: the address being drawn. */
  serverLocation?: string | null;
  /** The time the server drew the page at: the server's render and the browser's hydration use it. */
  renderTime?: number | null;
}) {
  return (
    <StrictMode>
      <ServerLocationProvider value={serverLocation}>
        <RenderTimeProvider value={renderTime}>
          <QueryClientProvider client={queryClient}>
            <App />
            <ToastHost />
          </QueryClientProvider>
        </RenderTimeProvider>
      </ServerLocationProvider>
    </StrictMode>
  );
}
