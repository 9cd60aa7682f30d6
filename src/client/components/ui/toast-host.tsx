/**
 * Where toasts appear. The toast UI (Radix) is fetched with the first toast, to keep the first
 * page small; until then a stand-in with the same name and place holds the notification area,
 * so F8 (spec section 9) reaches it from the first keystroke. When Radix's viewport arrives it
 * takes over, and takes focus with it if the stand-in had it.
 */
import { Suspense, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { NOTIFICATIONS_HOTKEY, NOTIFICATIONS_LABEL, onToastRequested, toastUiNeeded } from './toast.js';
import './notification-area.css';
import { lazyPart } from '../../lib/lazy-part.js';

const Toaster = lazyPart('components/ui/toaster.tsx', () => import('./toaster.js'));

export function ToastHost() {
  const needed = useSyncExternalStore(onToastRequested, toastUiNeeded, () => false);
  const [radixReady, setRadixReady] = useState(false);
  const standIn = useRef<HTMLOListElement>(null);

  // Radix's viewport listens for the hotkey itself once it is there.
  useEffect(() => {
    if (radixReady) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.code === NOTIFICATIONS_HOTKEY) standIn.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [radixReady]);

  const takeOver = useCallback((viewport: HTMLElement) => {
    if (document.activeElement === standIn.current) viewport.focus();
    setRadixReady(true);
  }, []);

  return (
    <>
      {!radixReady && (
        // The markup Radix's viewport renders while it has no toast.
        <div role="region" aria-label={NOTIFICATIONS_LABEL} tabIndex={-1} className="notification-area">
          <ol ref={standIn} tabIndex={-1} className="toast-viewport" />
        </div>
      )}
      {needed && (
        <Suspense fallback={null}>
          <Toaster onReady={takeOver} />
        </Suspense>
      )}
    </>
  );
}
