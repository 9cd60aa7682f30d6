import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile } from '../../shared/api.js';
import type { z } from 'zod';
import type { profileUpdate } from '../../shared/schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { profileQuery } from './get-profile.js';

/** Saves the answers given (null clears one, a missing one stays); the server answers the whole profile. */
export const saveProfile = (update: z.input<typeof profileUpdate>) =>
  apiRequest<Profile>('/api/me/profile', { method: 'PUT', body: update });

/**
 * The new profile is shown at once. No breakdown needs reading again: a past poll's counts keep
 * the groups its voters had, and today's follows a change only while voting is open, when no
 * breakdown of it is shown.
 */
export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfile,
    onSuccess: (profile) => queryClient.setQueryData(profileQuery.queryKey, profile),
  });
}
