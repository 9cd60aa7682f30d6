import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { VoteRecord, VotesSummary } from '../../../shared/api.js';
import { apiRequest } from '../../lib/api-client.js';

/** E-mails shown per page in the voter section. */
export const VOTER_EMAILS_PAGE = 100;

export const getVotesSummary = (pollId: number) => apiRequest<VotesSummary>(`/api/admin/polls/${pollId}/votes/summary`);

/** One page of the votes that carry an e-mail, after vote `after`. */
export const getVoterEmails = (pollId: number, after: number) =>
  apiRequest<VoteRecord[]>(`/api/admin/polls/${pollId}/votes?withEmail=true&limit=${VOTER_EMAILS_PAGE}&after=${after}`);

/** Where the browser downloads every vote as CSV: streamed to disk, never held by the page. */
export const votesCsvUrl = (pollId: number, withEmail = false) =>
  `/api/admin/polls/${pollId}/votes.csv${withEmail ? '?withEmail=true' : ''}`;

export const votesSummaryQuery = (pollId: number) =>
  queryOptions({ queryKey: ['admin', 'polls', pollId, 'votes', 'summary'], queryFn: () => getVotesSummary(pollId) });

export const voterEmailsQuery = (pollId: number) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'polls', pollId, 'votes', 'emails'],
    queryFn: ({ pageParam }) => getVoterEmails(pollId, pageParam),
    initialPageParam: 0,
    getNextPageParam: (page: VoteRecord[]) => (page.length < VOTER_EMAILS_PAGE ? undefined : page.at(-1)?.id),
  });

/** Both fetched only once the voter section is opened. */
export const useVotesSummary = (pollId: number, open: boolean) =>
  useQuery({ ...votesSummaryQuery(pollId), enabled: open });
export const useVoterEmails = (pollId: number, open: boolean) =>
  // A refusal (sign in again first) is shown at once, not retried.
  useInfiniteQuery({ ...voterEmailsQuery(pollId), enabled: open, retry: false });
