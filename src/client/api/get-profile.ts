import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Profile } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';

/** This browser's "about you" answers; all null when it gave none (or has no voter cookie yet). */
export const getProfile = () => apiRequest<Profile>('/api/me/profile');

export const profileQuery = queryOptions({ queryKey: ['me', 'profile'], queryFn: getProfile });

export const useProfile = () => useQuery(profileQuery);
