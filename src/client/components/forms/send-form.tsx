import type { ReactNode } from 'react';
import { SubmitButton } from './submit-button.js';

/**
 * A form that sends itself by script: its fields (`children`), then its primary button, which
 * says `sendingLabel` while `sending`; `after` stands under the button.
 */
export function SendForm({
  className,
  onSend,
  sending,
  sendingLabel,
  button,
  children,
  after,
}: {
  className: string;
  onSend: () => void;
  sending: boolean;
  sendingLabel: string;
  button: ReactNode;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <form
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
    >
      {children}
      <SubmitButton sending={sending} sendingLabel={sendingLabel}>
        {button}
      </SubmitButton>
      {after}
    </form>
  );
}
