import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AdminSession, Confirmation } from '../../../shared/api.js';
import type { signInRequest } from '../../../shared/schemas.js';
import { apiRequest } from '../../lib/api-client.js';
import { adminSessionQuery } from './get-admin-session.js';

export const signIn = (body: z.input<typeof signInRequest>) =>
  apiRequest<AdminSession>('/api/admin/login', { method: 'POST', body });

export const signOut = () => apiRequest<Confirmation>('/api/admin/logout', { method: 'POST' });

/**
 * Signing in or out changes what the session allows, so the admin data is read again. Not
 * awaited: the screen changes with the answer, and the caller's own callbacks (its toast)
 * must run before the screen that made the call goes away.
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminSessionQuery.queryKey }),
  });
}
