/** Utilities: the subscriber list and the outbox at a glance, resetting the popup, signing out. */
import { formatCount } from '../../../shared/results.js';
import { useMailStats } from '../../api/admin/get-mail-stats.js';
import { useSignOut } from '../../api/admin/sign-in.js';
import { toast } from '../../components/ui/toast.js';
import { useState } from 'react';
import { useDigestSettings, useSaveDigestTime } from '../../api/admin/notes-and-digest.js';
import { errorMessage } from '../../lib/api-client.js';
import { useCan } from './staff-context.js';
import { storage } from '../../lib/storage.js';

const count = formatCount;

function MailSummary() {
  const { data } = useMailStats();
  if (!data) return null;
  const { subscribers, outbox } = data;
  const rows: [string, string][] = [
    ['Subscribers (confirmed)', count(subscribers.confirmed)],
    ['Awaiting confirmation', count(subscribers.unconfirmed)],
    ['Unsubscribed', count(subscribers.unsubscribed)],
    ['E-mails queued', count(outbox.queued + outbox.sending)],
    ['Sent', count(outbox.sent)],
    ['Failed', count(outbox.failed)],
    ['Delivery', data.transport === 'smtp' ? 'Mail server' : 'Files (no SMTP_URL)'],
  ];
  return (
    <dl className="admin-mail">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Signs out here and forgets the session; the page then shows the sign-in screen. */
export function LogoutButton() {
  const signOut = useSignOut();
  function logOut() {
    signOut.mutate(undefined, {
      onSuccess: () => toast({ title: 'Logged out' }),
      onSettled: () => storage.setAdminAuthenticated(false),
    });
  }
  return (
    <button type="button" className="button button--secondary" onClick={logOut}>
      Logout
    </button>
  );
}

function resetPopup() {
  storage.resetSubscriptionPopup();
  toast({ title: 'Subscription popup reset', description: 'The subscribe invitation will show after your next vote.' });
}

/** The owner's setting: when the weekly digest leaves on Fridays, in the site's time zone. */
function DigestTime() {
  const { data } = useDigestSettings();
  const save = useSaveDigestTime();
  const [sendAt, setSendAt] = useState<string | null>(null);
  if (!data) return null;
  const value = sendAt ?? data.sendAt;
  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    save.mutate(value, {
      onSuccess: ({ message }) => toast({ title: message }),
      onError: (error) =>
        toast({ title: 'Not saved', description: errorMessage(error, 'Please try again.'), variant: 'failure' }),
    });
  }
  return (
    <form className="admin-digest" onSubmit={submit}>
      <label className="field__label" htmlFor="digest-time">
        Weekly digest: Fridays at ({data.timeZone})
      </label>
      <input
        id="digest-time"
        className="input"
        type="time"
        required
        value={value}
        onChange={(event) => setSendAt(event.target.value)}
      />
      <button type="submit" className="button button--secondary" disabled={save.isPending}>
        Save
      </button>
    </form>
  );
}

export function UtilitiesSection() {
  const owner = useCan('settings.write');
  return (
    <section className="admin-section card admin-utilities" aria-labelledby="utilities-heading">
      <h2 id="utilities-heading">Utilities</h2>
      <MailSummary />
      {owner && <DigestTime />}
      <div className="admin-item__actions">
        <button type="button" className="button button--secondary" onClick={resetPopup}>
          Reset Subscription Popup
        </button>
        <LogoutButton />
      </div>
    </section>
  );
}
