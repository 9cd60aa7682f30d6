import { lazy, Suspense, useSyncExternalStore } from 'react';
import { onToastRequested, toastUiNeeded } from './toast.js';

const Toaster = lazy(() => import('./toaster.js'));

/** Renders nothing until the first toast, then the toast UI. */
export function ToastHost() {
  const needed = useSyncExternalStore(onToastRequested, toastUiNeeded);
  return needed ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
