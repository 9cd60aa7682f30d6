/**
 * "Confirm it's you": what the panel shows when a change needs a sign-in within 10 minutes
 * (components/admin/reconfirm.ts). The person signs in again here, with a passkey or their
 * password, and the change they asked for is sent again.
 */
import { useCallback, useState, type ReactNode } from 'react';
import { ReconfirmContext } from '../../components/admin/reconfirm.js';
import { Dialog, DialogDescription } from '../../components/ui/dialog.js';
import { SignInForm } from './login-screen.js';

/** `email`: the signed-in person's, already filled in. */
export function ReconfirmPrompt({ email, children }: { email: string; children: ReactNode }) {
  const [pending, setPending] = useState<{ message: string; retry: () => void } | null>(null);
  const reconfirm = useCallback((message: string, retry: () => void) => setPending({ message, retry }), []);
  return (
    <ReconfirmContext.Provider value={reconfirm}>
      {children}
      <Dialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        title="Confirm it’s you"
        className="admin-reconfirm"
      >
        {pending && <DialogDescription>{pending.message}</DialogDescription>}
        {pending && (
          <SignInForm
            email={email}
            onDone={() => {
              setPending(null);
              pending.retry();
            }}
          />
        )}
      </Dialog>
    </ReconfirmContext.Provider>
  );
}
