/** Everything staff do to polls: each refreshes the admin list and today's poll. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Confirmation, SavedPoll } from '../../../shared/api.js';
import type { ActivateRequest, pollDraft } from '../../../shared/schemas.js';
import { apiRequest } from '../../lib/api-client.js';
import { activePollQuery } from '../get-active-poll.js';
import { adminPollsQuery } from './get-admin-polls.js';

/** What POST and PUT /api/admin/polls take, as their schema reads it. */
export type PollInput = z.input<typeof pollDraft>;

export const createPoll = (poll: PollInput) =>
  apiRequest<SavedPoll>('/api/admin/polls', { method: 'POST', body: poll });
export const updatePoll = ({ id, ...poll }: PollInput & { id: number }) =>
  apiRequest<SavedPoll>(`/api/admin/polls/${id}`, { method: 'PUT', body: poll });
export const deletePoll = (id: number) => apiRequest<Confirmation>(`/api/admin/polls/${id}`, { method: 'DELETE' });
/**
 * `replacing`: the poll staff saw active when they confirmed; the server refuses if it changed.
 * The API lets a client leave it out; the panel always says it, so two staff never both win.
 */
export const activatePoll = ({ id, replacing }: Required<ActivateRequest> & { id: number }) =>
  apiRequest<Confirmation>(`/api/admin/polls/${id}/activate`, { method: 'PUT', body: { replacing } });
export const updatePollStatuses = () =>
  apiRequest<Confirmation & { activatedPollId: number | null }>('/api/admin/update-poll-status', { method: 'POST' });

function usePollChange<A, R>(mutationFn: (argument: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminPollsQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: activePollQuery.queryKey }),
      ]),
  });
}

export const useCreatePoll = () => usePollChange(createPoll);
export const useUpdatePoll = () => usePollChange(updatePoll);
export const useDeletePoll = () => usePollChange(deletePoll);
export const useActivatePoll = () => usePollChange(activatePoll);
export const useUpdatePollStatuses = () => usePollChange(updatePollStatuses);
