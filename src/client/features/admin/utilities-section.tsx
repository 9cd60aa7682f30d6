/** Utilities: the subscriber list and the outbox at a glance, resetting the popup, signing out. */
import { formatCount } from '../../../shared/results.js';
import { useMailStats } from '../../api/admin/get-mail-stats.js';
import { useSignOut } from '../../api/admin/sign-in.js';
import { toast } from '../../components/ui/toast.js';
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

export function UtilitiesSection() {
  return (
    <section className="admin-section card admin-utilities" aria-labelledby="utilities-heading">
      <h2 id="utilities-heading">Utilities</h2>
      <MailSummary />
      <div className="admin-item__actions">
        <button type="button" className="button button--secondary" onClick={resetPopup}>
          Reset Subscription Popup
        </button>
        <LogoutButton />
      </div>
    </section>
  );
}
