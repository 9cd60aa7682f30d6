/**
 * Toasts, one at a time (a new one replaces the last): 5 s, swipe right to dismiss, F8 to reach
 * them from the keyboard, announced to screen readers, with an optional action button. Radix
 * Toast does the hard parts.
 */
import * as Toast from '@radix-ui/react-toast';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { NOTIFICATIONS_HOTKEY, NOTIFICATIONS_LABEL, receiveToasts, type ShownToast } from './toast.js';
import './toaster.css';

const HOTKEY = [NOTIFICATIONS_HOTKEY]; // one array: Radix re-binds the key when it changes

/** `onReady` receives the viewport once it is in the page, to take over from the stand-in. */
export default function Toaster({ onReady }: { onReady: (viewport: HTMLElement) => void }) {
  const [current, setCurrent] = useState<ShownToast | null>(null);
  const viewport = useRef<HTMLOListElement>(null);
  useLayoutEffect(() => {
    if (viewport.current) onReady(viewport.current);
  }, [onReady]);
  useEffect(() => receiveToasts(setCurrent), []);

  const variant = current?.variant ?? 'success';
  return (
    <Toast.Provider duration={5000} swipeDirection="right" swipeThreshold={50}>
      {current && (
        <Toast.Root
          key={current.id}
          className={`toast toast--${variant}`}
          // Problems are announced at once; confirmations politely.
          type={variant === 'success' ? 'background' : 'foreground'}
          onOpenChange={(open) => {
            if (!open) setCurrent(null);
          }}
        >
          <Toast.Title className="toast__title">{current.title}</Toast.Title>
          {current.description && (
            <Toast.Description className="toast__description">{current.description}</Toast.Description>
          )}
          {current.action && (
            <Toast.Action
              className="button button--secondary toast__action"
              altText={current.action.altText}
              onClick={current.action.onAction}
            >
              {current.action.label}
            </Toast.Action>
          )}
          <Toast.Close className="toast__close" aria-label="Dismiss notification">
            ×
          </Toast.Close>
        </Toast.Root>
      )}
      <Toast.Viewport ref={viewport} className="toast-viewport" label={NOTIFICATIONS_LABEL} hotkey={HOTKEY} />
    </Toast.Provider>
  );
}
