/**
 * "Remind me in this browser": offered in the invitation after a vote. The browser's permission
 * prompt comes only after this button is clicked, never on load. Hidden where there is no push
 * or notifications were blocked; on an iPhone or iPad outside a home-screen app, how to add
 * the site to the home screen instead (iOS gives push only to such apps).
 */
import { useState } from 'react';
import { getReminders } from '../../api/reminders.js';
import { errorMessage } from '../../lib/api-client.js';
import { pushSupport, turnOn } from './push.js';
import { reminderSummary } from './reminder-words.js';
import './reminders.css';

export default function RemindOffer() {
  const [support] = useState(pushSupport);
  const [state, setState] = useState<{ kind: 'idle' | 'asking' } | { kind: 'done' | 'failed'; text: string }>({
    kind: 'idle',
  });

  if (support === 'unsupported' || support === 'denied') return null;
  if (support === 'home-screen-first') {
    return (
      <div className="remind-offer" role="note">
        <p className="remind-offer__title">Get a daily reminder on this iPhone or iPad</p>
        <p className="remind-offer__text">
          Tap <strong>Share</strong>, then <strong>Add to Home Screen</strong>. Open the site from its new icon and
          vote: you can then turn reminders on.
        </p>
      </div>
    );
  }

  async function remind() {
    setState({ kind: 'asking' });
    try {
      const { applicationServerKey } = await getReminders();
      const outcome = await turnOn(applicationServerKey);
      setState(
        outcome.ok
          ? { kind: 'done', text: reminderSummary(outcome.reminder) }
          : { kind: 'failed', text: 'Notifications are blocked for this site, so no reminders.' },
      );
    } catch (error) {
      setState({ kind: 'failed', text: errorMessage(error, 'Could not turn reminders on. Please try again.') });
    }
  }

  return (
    <div className="remind-offer">
      {state.kind === 'done' ? (
        <p className="remind-offer__text" role="status">
          {state.text} <a href="/reminders">Change</a>
        </p>
      ) : (
        <>
          <button
            type="button"
            className="button button--secondary remind-offer__button"
            onClick={() => void remind()}
            disabled={state.kind === 'asking'}
          >
            🔔 Remind me in this browser
          </button>
          <p className="remind-offer__text">
            One notification on school days at 3:30 pm your time, only if you haven’t voted yet.
          </p>
          {state.kind === 'failed' && (
            <p className="remind-offer__text" role="alert">
              {state.text}
            </p>
          )}
        </>
      )}
    </div>
  );
}
