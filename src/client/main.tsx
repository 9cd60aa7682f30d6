import { QueryClientProvider } from '@tanstack/react-query';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { STYLE_NONCE_META_NAME } from '../shared/site-config.js';
import { App } from './app/app.js';
import { queryClient } from './app/query-client.js';
import { ToastHost } from './components/ui/toast-host.js';
import './styles/base.css';
import './components/layout/layout.css';

// The dialogs' scroll lock adds a <style> element; the page's CSP lets it in with this nonce.
const nonce = document.querySelector<HTMLMetaElement>(`meta[name="${STYLE_NONCE_META_NAME}"]`)?.content;
if (nonce && !nonce.startsWith('__')) setNonce(nonce);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
        <ToastHost />
      </QueryClientProvider>
    </StrictMode>,
  );
}
