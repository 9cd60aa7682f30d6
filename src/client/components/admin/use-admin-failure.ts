import { useQueryClient } from '@tanstack/react-query';
import { adminSessionQuery } from '../../api/admin/get-admin-session.js';
import { toast, tryAgain } from '../ui/toast.js';
import { errorMessage, isRefusal, isRetryable } from '../../lib/api-client.js';
import { useReconfirm } from './reconfirm.js';

/**
 * Reports a failed admin call. A 401 means the session ended (idle, too old, signed out
 * elsewhere): back to the sign-in screen. A call that needs a recent sign-in asks for one, then
 * `retry` sends it again. Anything else shows `title` with the server's words,
 * or `description` (else "Please try again.") when the server was not reached; then `retry`,
 * which sends the same change again, is offered as "Try again".
 */
export function useAdminFailure() {
  const queryClient = useQueryClient();
  const reconfirmed = useReconfirm();
  return (title: string, error: unknown, { description, retry }: { description?: string; retry?: () => void } = {}) => {
    if (retry && reconfirmed(error, retry)) return;
    if (isRefusal(error, 'unauthorized')) {
      toast({
        title: 'Access denied',
        description: 'Your session has ended. Please sign in again.',
        variant: 'destructive',
      });
      void queryClient.invalidateQueries({ queryKey: adminSessionQuery.queryKey });
      return;
    }
    toast({
      title,
      description: description ?? errorMessage(error, 'Please try again.'),
      variant: 'failure',
      action:
        retry && isRetryable(error)
          ? tryAgain('Repeat the same action in the admin panel to try again.', retry)
          : undefined,
    });
  };
}
