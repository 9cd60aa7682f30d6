/** Asking before something that cannot be undone, in an accessible dialog (Radix AlertDialog). */
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useCallback, useState, type ReactNode } from 'react';
import './dialog.css';
import './style-nonce.js';

export interface ConfirmRequest {
  title: string;
  description: string;
  confirmLabel: string;
}

/** `confirm(request)` resolves true when the person confirms; render `dialog` somewhere in the tree. */
export function useConfirm(): { confirm: (request: ConfirmRequest) => Promise<boolean>; dialog: ReactNode } {
  const [pending, setPending] = useState<{
    request: ConfirmRequest;
    answer: (yes: boolean) => void;
    /** What had the keyboard when the question came up: it gets it back (there is no Radix Trigger). */
    returnFocus: Element | null;
  } | null>(null);

  const confirm = useCallback(
    (request: ConfirmRequest) =>
      new Promise<boolean>((resolve) => setPending({ request, answer: resolve, returnFocus: document.activeElement })),
    [],
  );

  function close(yes: boolean) {
    pending?.answer(yes);
    setPending(null);
  }

  const dialog = pending && (
    <AlertDialog.Root
      open
      onOpenChange={(open) => {
        if (!open) close(false);
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content
          className="dialog"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (pending.returnFocus instanceof HTMLElement && pending.returnFocus.isConnected)
              pending.returnFocus.focus();
          }}
        >
          <AlertDialog.Title className="dialog__title">{pending.request.title}</AlertDialog.Title>
          <AlertDialog.Description>{pending.request.description}</AlertDialog.Description>
          <div className="dialog__actions">
            <AlertDialog.Cancel className="button button--quiet">Cancel</AlertDialog.Cancel>
            <AlertDialog.Action className="button button--danger" onClick={() => close(true)}>
              {pending.request.confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
  return { confirm, dialog };
}
