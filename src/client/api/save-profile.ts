import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile } from '../../shared/api.js';
import type { z } from 'zod';
import type { profileUpdate } from '../../shared/schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { BREAKDOWNS_KEY } from './get-breakdown.js';
import { profileQuery } from './get-profile.js';

/** Saves the answers given (null clears one, a missing one stays); the server answers the whole profile. */
export const saveProfile = (update: z.input<typeof profileUpdate>) =>
  apiRequest<Profile>('/api/me/profile', { method: 'PUT', body: update });

/**
 * The new profile is shown at once. Saving also updates this voter's vote on today's poll, so
 * today's breakdown (open after the close) is read again; past polls keep their copies.
 */
export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfile,
    onSuccess: async (profile) => {
      queryClient.setQueryData(profileQuery.queryKey, profile);
      await queryClient.invalidateQueries({ queryKey: BREAKDOWNS_KEY });
    },
  });
}
