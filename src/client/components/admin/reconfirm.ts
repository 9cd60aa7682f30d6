/**
 * A refusal with the code `sign-in-again` (what makes access permanent, voter e-mails, deleting a
 * poll with votes: each needs a sign-in within 10 minutes) asks the person to confirm it is them,
 * then sends the same change again. The panel (features/admin) provides the prompt; without one
 * the refusal is shown as any other.
 */
import { createContext, useContext } from 'react';
import { isRefusal } from '../../lib/api-client.js';

/** Shows the prompt with the server's `message`; `retry` runs once the person has signed in again. */
export type Reconfirm = (message: string, retry: () => void) => void;

export const ReconfirmContext = createContext<Reconfirm | null>(null);

/** `(error, retry)`: true when the error asked to sign in again and the prompt took over. */
export function useReconfirm(): (error: unknown, retry: () => void) => boolean {
  const reconfirm = useContext(ReconfirmContext);
  return (error, retry) => {
    if (!reconfirm || !isRefusal(error, 'sign-in-again')) return false;
    reconfirm(error.message, retry);
    return true;
  };
}
