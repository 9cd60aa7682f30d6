/**
 * Showing a toast, from anywhere. This part is tiny and always loaded; the toast UI (Radix) is
 * fetched when the first toast is shown, so the page a teacher first opens stays small.
 */

/** Radix Toast's defaults: the notification area's name and the key that focuses it. */
export const NOTIFICATIONS_LABEL = 'Notifications (F8)';
export const NOTIFICATIONS_HOTKEY = 'F8';

/** The spec's four styles, plus plain success. */
export type ToastVariant = 'success' | 'heads-up' | 'failure' | 'validation' | 'destructive';

/** The toast's one button (the spec's "optional action"), such as "Try again". */
export interface ToastAction {
  label: string;
  /**
   * How to do the same without the button. Screen readers announce this in the button's
   * place, since the toast may be gone before they could reach it (Radix Toast.Action).
   */
  altText: string;
  onAction: () => void;
}

export interface ToastMessage {
  title: string;
  description?: string;
  variant?: ToastVariant;
  action?: ToastAction;
}

export type ShownToast = ToastMessage & { id: number };

let nextId = 0;
let show: ((toast: ShownToast) => void) | undefined;
let waiting: ShownToast | undefined;
const wakers = new Set<() => void>();

/** "Try again": sends what failed once more. */
export const tryAgain = (altText: string, onAction: () => void): ToastAction => ({
  label: 'Try again',
  altText,
  onAction,
});

/** Shows a toast, replacing the one on screen. */
export function toast(message: ToastMessage): void {
  nextId += 1;
  const shown = { ...message, id: nextId };
  if (show) {
    show(shown);
    return;
  }
  waiting = shown; // shown as soon as the toast UI has loaded
  for (const wake of wakers) wake();
}

/** For the toast UI: receive toasts from now on, starting with one that waited for it. */
export function receiveToasts(receiver: (toast: ShownToast) => void): () => void {
  show = receiver;
  if (waiting) {
    receiver(waiting);
    waiting = undefined;
  }
  return () => {
    if (show === receiver) show = undefined;
  };
}

/** Whether any toast has been asked for yet: the toast UI is needed from then on. */
export const toastUiNeeded = () => nextId > 0;

/** Calls `wake` when a toast is asked for; returns the unsubscribe function. */
export function onToastRequested(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}
