/**
 * "Forget this browser", on the privacy page: after an accessible confirmation, the server
 * deletes this browser's profile and the e-mails on its votes (the votes stay counted,
 * anonymously) and clears its cookie; then this browser clears what it kept about the visitor.
 */
import { useState } from 'react';
import { useForgetBrowser } from '../../api/forget-browser.js';
import { useConfirm } from '../../components/ui/confirm.js';
import { toast, tryAgain } from '../../components/ui/toast.js';
import { errorMessage, isRetryable } from '../../lib/api-client.js';
import { useHydrated } from '../../lib/use-hydrated.js';

export function ForgetBrowser() {
  const { confirm, dialog } = useConfirm();
  const forget = useForgetBrowser();
  const [done, setDone] = useState(false);
  const hydrated = useHydrated();

  function send() {
    forget.mutate(undefined, {
      onSuccess: () => setDone(true),
      onError: (error) =>
        toast({
          title: 'Failed to forget this browser',
          description: errorMessage(error, 'Please try again.'),
          variant: 'failure',
          action: isRetryable(error) ? tryAgain('Press Forget this browser again.', send) : undefined,
        }),
    });
  }

  async function ask() {
    if (forget.isPending) return;
    const yes = await confirm({
      title: 'Forget this browser?',
      description:
        'The answers you gave about yourself, any e-mail address on your votes and this browser’s reminders will be deleted. Your votes stay counted, anonymously, but this browser will no longer show how you voted or your stats. This cannot be undone.',
      confirmLabel: 'Forget this browser',
    });
    if (yes) send();
  }

  return (
    <div className="forget-browser">
      <h3>Forget this browser</h3>
      <p>
        Deletes what we hold about this browser: the answers you gave about yourself, any e-mail address on its votes,
        and its reminders. Your votes stay in the results, with nothing to tie them to you. E-mail subscriptions are
        separate: use the unsubscribe link in any of our e-mails.
      </p>
      <button type="button" className="button button--danger" onClick={() => void ask()} disabled={!hydrated}>
        {forget.isPending ? 'Forgetting…' : 'Forget this browser'}
      </button>
      <p role="status" className="forget-browser__done">
        {done
          ? 'Done. This browser has been forgotten: your answers and the e-mail addresses on its votes are deleted, and what it kept on this device is cleared.'
          : ''}
      </p>
      {dialog}
    </div>
  );
}
