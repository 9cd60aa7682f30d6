/**
 * Every staff change goes the same way: ask first when it cannot be undone, send it, toast the
 * server's answer; on failure, toast why, with "Try again", which sends the same change again
 * without asking twice. The lists refresh through the mutation's own onSettled (api/admin).
 */
import type { UseMutationResult } from '@tanstack/react-query';
import type { Confirmation } from '../../../shared/api.js';
import { toast, type ToastMessage } from '../ui/toast.js';
import type { ConfirmRequest } from '../ui/confirm.js';
import { useAdminFailure } from './use-admin-failure.js';

export interface StaffActionSpec<Input, Variables, Result extends Confirmation> {
  /** What the call takes, from what staff acted on. */
  request: (input: Input) => Variables;
  /** The question asked before sending; without it the change is sent at once. */
  ask?: (input: Input) => ConfirmRequest;
  /** Runs once staff have said yes, before the change is sent. */
  confirmed?: (input: Input) => void;
  /** The failure toast: its title, and what it says when the server did not say why. */
  failure: (input: Input) => { title: string; description?: string };
  /** The success toast; by default the server's message. */
  done?: (result: Result, input: Input) => ToastMessage;
}

/** `confirm` (from useConfirm) shows the `ask` question in the section's dialog; needed only with `ask`. */
export function useStaffAction<Input, Variables, Result extends Confirmation>(
  mutation: UseMutationResult<Result, Error, Variables>,
  spec: StaffActionSpec<Input, Variables, Result>,
  confirm?: (request: ConfirmRequest) => Promise<boolean>,
): (input: Input) => Promise<void> {
  const failed = useAdminFailure();

  function send(input: Input) {
    mutation.mutate(spec.request(input), {
      onSuccess: (result) => toast(spec.done?.(result, input) ?? { title: result.message }),
      onError: (error) => {
        const { title, description } = spec.failure(input);
        failed(title, error, { ...(description ? { description } : {}), retry: () => send(input) });
      },
    });
  }

  return async (input: Input) => {
    const question = spec.ask?.(input);
    if (question) {
      if (!confirm) throw new Error('A staff action that asks first needs a confirm dialog');
      if (!(await confirm(question))) return;
    }
    spec.confirmed?.(input);
    send(input);
  };
}
