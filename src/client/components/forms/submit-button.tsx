import type { ReactNode } from 'react';

/** A form's primary button: while the form is being sent it is disabled and says so (`sendingLabel`). */
export function SubmitButton({
  sending,
  sendingLabel,
  children,
}: {
  sending: boolean;
  sendingLabel: string;
  children: ReactNode;
}) {
  return (
    <button type="submit" className="button button--primary" disabled={sending}>
      {sending ? sendingLabel : children}
    </button>
  );
}
