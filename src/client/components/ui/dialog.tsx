/**
 * A modal dialog in the site's look: the page dimmed, a card in the middle, its title first.
 * Radix keeps focus inside and closes it on Escape or a click outside; each dialog brings its
 * own description and content.
 */
import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import './dialog.css';
import './style-nonce.js';

export const DialogDescription = RadixDialog.Description;
export const DialogClose = RadixDialog.Close;

export function Dialog({
  open,
  onOpenChange,
  title,
  className,
  onCloseAutoFocus,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** The dialog's own block, beside the shared `dialog`. */
  className: string;
  /** Where focus goes once the dialog is gone, when not back to what opened it. */
  onCloseAutoFocus?: (event: Event) => void;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content className={`dialog ${className}`} onCloseAutoFocus={onCloseAutoFocus}>
          <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
