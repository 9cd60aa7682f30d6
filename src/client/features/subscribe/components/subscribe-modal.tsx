/**
 * "Vote Recorded! 🎉": the invitation to the e-mail list, straight after a vote. Closing it any
 * way (No Thanks, Escape, a click outside) counts as seen, so it does not come back.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { consentText } from '../../../../shared/consent.js';
import type { MailFrequency } from '../../../../shared/schemas.js';
import { activePollQuery } from '../../../api/get-active-poll.js';
import { statsQuery } from '../../../api/get-stats.js';
import { useSubscribe } from '../../../api/subscribe.js';
import { EmailField } from '../../../components/forms/email-field.js';
import { toastProblem, type ProblemTitles } from '../../../components/forms/problem-toast.js';
import { SubmitButton } from '../../../components/forms/submit-button.js';
import { Dialog, DialogDescription } from '../../../components/ui/dialog.js';
import { toast } from '../../../components/ui/toast.js';
import { errorMessage, isRefusal } from '../../../lib/api-client.js';
import { checkForm, preloadSchemas } from '../../../lib/form-check.js';
import { siteConfig } from '../../../lib/site-config.js';
import { storage } from '../../../lib/storage.js';
import './subscribe.css';

/** The spec's titles for what it names (section 5); any other problem reads as the server's refusal does. */
const TITLES: ProblemTitles = { email: { too_small: 'Email required', invalid_format: 'Invalid email format' } };
const FAILED = 'Subscription failed';

/** Daily (as before), Friday's round-up of the week, or both. */
const FREQUENCIES: [MailFrequency, string][] = [
  ['daily', 'Every day'],
  ['weekly', 'Once a week (Fridays)'],
  ['both', 'Both'],
];

export default function SubscribeModal({
  pollId,
  onClose,
  returnFocus,
  more,
}: {
  pollId: number;
  /** Other ways to hear from us, offered under the e-mail form (the page composes them). */
  more?: ReactNode;
  onClose: () => void;
  /** Where focus goes once the dialog is gone (the option that was clicked is gone too). */
  returnFocus: () => void;
}) {
  const queryClient = useQueryClient();
  const subscribe = useSubscribe();
  const [email, setEmail] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [frequency, setFrequency] = useState<MailFrequency>('daily');
  useEffect(preloadSchemas, []);

  function dismiss() {
    storage.setEmailModalSeen();
    onClose();
    void queryClient.invalidateQueries({ queryKey: activePollQuery.queryKey });
    void queryClient.invalidateQueries({ queryKey: statsQuery.queryKey });
  }

  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    void send();
  }

  async function send() {
    let checked;
    try {
      checked = await checkForm((schemas) => schemas.subscribeRequest, { email, pollId });
    } catch (error) {
      failed(error);
      return;
    }
    if (!checked.ok) {
      toastProblem(checked.problem, TITLES, FAILED);
      return;
    }
    if (!agreed) {
      toast({
        title: 'Terms agreement required',
        description: 'Please agree to our terms and conditions and privacy policy.',
        variant: 'validation',
      });
      return;
    }
    subscribe.mutate(
      { email: checked.data.email, pollId, frequency },
      {
        onSuccess: () => {
          // Double opt-in (DESIGN.md): nothing arrives until the e-mail's link is followed.
          toast({
            title: 'Subscribed! 🎉',
            description: 'Check your inbox and confirm your subscription to start receiving poll results.',
          });
          onClose();
        },
        onError: failed,
      },
    );
  }

  /**
   * The server's words for a refusal (too many tries, an e-mail already on the vote), "already
   * voted" in the spec's; the spec's sentence when the server was not reached.
   */
  function failed(error: unknown) {
    const alreadyVoted = isRefusal(error, 'email-already-voted') || isRefusal(error, 'already-voted');
    toast({
      title: FAILED,
      description: alreadyVoted
        ? 'This email has already voted on this poll.'
        : errorMessage(error, 'Could not subscribe. Please try again.'),
      variant: 'failure',
    });
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !subscribe.isPending) dismiss();
      }}
      title="Vote Recorded! 🎉"
      className="subscribe-modal"
      onCloseAutoFocus={(event) => {
        event.preventDefault();
        returnFocus();
      }}
    >
      <DialogDescription className="subscribe-modal__pitch">
        Join the VIP list: get each poll&apos;s results and a note when a new hot take goes live.
      </DialogDescription>
      <form className="subscribe-modal__form" onSubmit={submit} noValidate>
        <EmailField label="Email address" value={email} onChange={setEmail} />
        <fieldset className="subscribe-modal__frequency">
          <legend>How often?</legend>
          {FREQUENCIES.map(([value, label]) => (
            <label key={value}>
              <input
                type="radio"
                name="frequency"
                value={value}
                checked={frequency === value}
                onChange={() => setFrequency(value)}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        <label className="subscribe-modal__consent">
          <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
          <span>
            {consentText(siteConfig.siteName, siteConfig.brandName)} See our{' '}
            <a href="/privacy" target="_blank" rel="noopener">
              Privacy Policy
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
            .
          </span>
        </label>
        <div className="subscribe-modal__actions">
          <button type="button" className="button button--quiet" onClick={dismiss} disabled={subscribe.isPending}>
            No Thanks
          </button>
          <SubmitButton sending={subscribe.isPending} sendingLabel="Subscribing...">
            Subscribe
          </SubmitButton>
        </div>
      </form>
      {more}
    </Dialog>
  );
}
