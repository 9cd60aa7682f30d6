/**
 * Today's poll with what follows from it: the card (active-poll), the subscribe invitation
 * right after a vote (subscribe) with the offer of push reminders (reminders), the share dialog (share), and under the results the
 * breakdowns, the "about you" invitation and the question's last run (today-results-extras).
 * The features stay apart; this is where they meet. All but the card load when first shown.
 */
import { Suspense, useState } from 'react';
import type { ActivePoll } from '../../../shared/api.js';
import { ActivePollCard } from '../../features/active-poll/components/active-poll-card.js';
import { invitationDue } from '../../features/subscribe/invitation.js';
import { pollUrl } from '../../lib/site-config.js';
import { lazyPart } from '../../lib/lazy-part.js';

const SubscribeModal = lazyPart(
  'features/subscribe/components/subscribe-modal.tsx',
  () => import('../../features/subscribe/components/subscribe-modal.js'),
);
/** Push reminders, offered in the invitation after a vote (features/reminders). */
const RemindOffer = lazyPart(
  'features/reminders/remind-offer.tsx',
  () => import('../../features/reminders/remind-offer.js'),
);
const ShareDialog = lazyPart('features/share/share-dialog.tsx', () => import('../../features/share/share-dialog.js'));
const TodayResultsExtras = lazyPart('app/pages/today-results-extras.tsx', () => import('./today-results-extras.js'));

export function TodayPoll() {
  const [invitation, setInvitation] = useState<{ pollId: number; returnFocus: () => void } | null>(null);
  const [share, setShare] = useState<{ poll: ActivePoll; kind: 'networks' | 'device' } | null>(null);

  function voted(poll: ActivePoll, returnFocus: () => void) {
    if (!invitationDue()) return false;
    setInvitation({ pollId: poll.id, returnFocus });
    return true;
  }

  return (
    <>
      <ActivePollCard
        onVoted={voted}
        // Before voting, the networks to post to; on the results, the device's own share sheet.
        onShare={(poll, from) => setShare({ poll, kind: from === 'voting' ? 'networks' : 'device' })}
        resultsExtras={(poll) => (
          <Suspense fallback={null}>
            <TodayResultsExtras poll={poll} />
          </Suspense>
        )}
      />
      <Suspense fallback={null}>
        {invitation && (
          <SubscribeModal
            pollId={invitation.pollId}
            onClose={() => setInvitation(null)}
            returnFocus={invitation.returnFocus}
            more={<RemindOffer />}
          />
        )}
        {share && (
          <ShareDialog
            open
            onOpenChange={(open) => {
              if (!open) setShare(null);
            }}
            url={pollUrl(share.poll.pollNumber)}
            text={share.poll.question}
            kind={share.kind}
            pollNumber={share.poll.pollNumber}
            optionCount={share.poll.options.length}
          />
        )}
      </Suspense>
    </>
  );
}
