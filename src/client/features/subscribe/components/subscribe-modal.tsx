/**
 * "Vote Recorded! 🎉": the invitation to the e-mail list, straight after a vote. Closing it any
 * way (No Thanks, Escape, a click outside) counts as seen, so it does not come back.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { consentText } from '../../../../shared/consent.js';
import { EMAIL_PATTERN } from '../../../../shared/limits.js';
import { activePollQuery } from '../../../api/get-active-poll.js';
import { statsQuery } from '../../../api/get-stats.js';
import { useSubscribe } from '../../../api/subscribe.js';
import { toast } from '../../../components/ui/toast.js';
import { errorMessage } from '../../../lib/api-client.js';
import { siteConfig } from '../../../lib/site-config.js';
import { storage } from '../../../lib/storage.js';
import '../../share/share.css';
import './subscribe.css';

export default function SubscribeModal({
  pollId,
  onClose,
  returnFocus,
}: {
  pollId: number;
  onClose: () => void;
  /** Where focus goes once the dialog is gone (the option that was clicked is gone too). */
  returnFocus: () => void;
}) {
  const queryClient = useQueryClient();
  const subscribe = useSubscribe();
  const [email, setEmail] = useState('');
  const [agreed, setAgreed] = useState(false);
  const emailId = useId();

  function dismiss() {
    storage.setEmailModalSeen();
    onClose();
    void queryClient.invalidateQueries({ queryKey: activePollQuery.queryKey });
    void queryClient.invalidateQueries({ queryKey: statsQuery.queryKey });
  }

  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    const address = email.trim().toLowerCase();
    if (!address) {
      toast({ title: 'Email required', description: 'Please enter your email address to subscribe.', variant: 'validation' });
      return;
    }
    if (!EMAIL_PATTERN.test(address)) {
      toast({ title: 'Invalid email format', description: 'Please enter a valid email address.', variant: 'validation' });
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
      { email: address, pollId },
      {
        onSuccess: () => {
          // Double opt-in (DESIGN.md): nothing arrives until the e-mail's link is followed.
          toast({ title: 'Subscribed! 🎉', description: 'Check your inbox and confirm your subscription to start receiving poll results.' });
          onClose();
        },
        onError: (error) => {
          // The server's words for a refusal (too many tries, an e-mail already on the vote),
          // "already voted" in the spec's; the spec's sentence when the server was not reached.
          const message = errorMessage(error, 'Could not subscribe. Please try again.');
          toast({
            title: 'Subscription failed',
            description: /already voted/i.test(message) ? 'This email has already voted on this poll.' : message,
            variant: 'failure',
          });
        },
      },
    );
  }

  return (
    <Dialog.Root
      open
      onOpenChange={(open) => {
        if (!open && !subscribe.isPending) dismiss();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog subscribe-modal" onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus();
          }}>
          <Dialog.Title className="dialog__title">Vote Recorded! 🎉</Dialog.Title>
          <Dialog.Description className="subscribe-modal__pitch">
            Join the VIP list: get each poll&apos;s results and a note when a new hot take goes live.
          </Dialog.Description>
          <form className="subscribe-modal__form" onSubmit={submit} noValidate>
            <div className="field">
              <label className="field__label" htmlFor={emailId}>
                Email address
              </label>
              <input
                id={emailId}
                className="input"
                type="email"
                inputMode="email"
                autoComplete="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </div>
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
              <button type="submit" className="button button--primary" disabled={subscribe.isPending}>
                {subscribe.isPending ? 'Subscribing...' : 'Subscribe'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
