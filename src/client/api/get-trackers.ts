import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Tracker, TrackerSummary } from '../../shared/trackers.js';
import { apiRequest } from '../lib/api-client.js';

export const getTrackers = () => apiRequest<TrackerSummary[]>('/api/trackers');
export const getTracker = (slug: string) => apiRequest<Tracker>(`/api/trackers/${encodeURIComponent(slug)}`);

export const trackersQuery = queryOptions({ queryKey: ['trackers'], queryFn: getTrackers });

/** A refusal (no such tracker) is kept, not asked again on mount: the server drew it so. */
export const trackerQuery = (slug: string) =>
  queryOptions({ queryKey: ['trackers', slug], queryFn: () => getTracker(slug), retryOnMount: false });

export const useTrackers = () => useQuery(trackersQuery);
export const useTracker = (slug: string) => useQuery(trackerQuery(slug));
