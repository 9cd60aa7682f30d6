import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WeightingData } from '../../shared/api.js';
import { WEIGHTING_DATA_PATH } from '../../shared/open-data.js';
import { apiRequest } from '../lib/api-client.js';

export const getWeightingData = () => apiRequest<WeightingData>(WEIGHTING_DATA_PATH);

/** Changes only with a release: never asked again while the page is open. */
export const weightingDataQuery = queryOptions({
  queryKey: ['data', 'weighting'],
  queryFn: getWeightingData,
  staleTime: Infinity,
});

export const useWeightingData = () => useQuery(weightingDataQuery);
