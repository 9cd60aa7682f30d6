import { useQueryClient } from '@tanstack/react-query';
import { adminSessionQuery } from '../../api/admin/get-admin-session.js';
import { toast } from '../../components/ui/toast.js';
import { ApiRequestError, errorMessage } from '../../lib/api-client.js';

/**
 * Reports a refused admin call. A 401 means the session ended (idle, too old, signed out
 * elsewhere): back to the sign-in screen. Anything else shows `title` with the server's words.
 */
export function useAdminFailure() {
  const queryClient = useQueryClient();
  return (title: string, error: unknown, description?: string) => {
    if (error instanceof ApiRequestError && error.status === 401) {
      toast({ title: 'Access denied', description: 'Your session has ended. Please sign in again.', variant: 'destructive' });
      void queryClient.invalidateQueries({ queryKey: adminSessionQuery.queryKey });
      return;
    }
    toast({ title, description: description ?? errorMessage(error, 'Please try again.'), variant: 'failure' });
  };
}
