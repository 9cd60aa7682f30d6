import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Topic } from '../../shared/api.js';
import { apiRequest } from '../lib/api-client.js';

/** The topic list the owner keeps (issue 39), in its order. */
export const getTopics = () => apiRequest<Topic[]>('/api/topics');

export const topicsQuery = queryOptions({ queryKey: ['topics'], queryFn: getTopics });

export const useTopics = () => useQuery(topicsQuery);
