/** /admin: the sign-in screen, or the panel once the server says this browser is signed in. */
import { useEffect } from 'react';
import { ADMIN_NAV, type AdminPlace } from '../../../shared/admin-paths.js';
import { useAdminSession } from '../../api/admin/get-admin-session.js';
import { PageShell } from '../../components/layout/page-shell.js';
import { storage } from '../../lib/storage.js';
import { AdminPanel } from './admin-panel.js';
import type { ReviewPanel } from './poll-lists.js';
import { LoginScreen } from './login-screen.js';
import { StaffContext } from './staff-context.js';
import { useStaffLink } from './staff-link.js';
import { ReconfirmPrompt } from './reconfirm-prompt.js';
import '../../components/ui/dialog.css';
import './admin.css';
import './poll-places.css';
import './staff-places.css';

/** The browser tab's title: the place, then the panel. */
function placeTitle(place: AdminPlace): string {
  if (place.name === 'today') return 'Admin Panel';
  const name =
    place.name === 'poll'
      ? `Poll #${place.pollNumber}${place.tab === 'integrity' ? ' integrity review' : ''}`
      : (ADMIN_NAV.find((item) => item.name === place.name)?.label ?? '');
  return `${name} · Admin Panel`;
}

/** `reviewPanel`: each poll's integrity review (features/integrity), handed in by the app. */
export default function AdminPage({ place, reviewPanel }: { place: AdminPlace; reviewPanel?: ReviewPanel }) {
  const { data, isPending, isError } = useAdminSession();
  const signedIn = data?.authenticated === true;
  // Read (and taken out of the address bar) as soon as the page runs, whatever the session says.
  const [link, linkUsed] = useStaffLink();
  useEffect(() => {
    if (data) storage.setAdminAuthenticated(data.authenticated);
  }, [data]);

  return (
    <PageShell title={placeTitle(place)} back={{ to: '/', label: 'Back to site' }} wide>
      {isPending ? (
        <p role="status" className="card">
          Checking your sign-in…
        </p>
      ) : isError ? (
        <p role="alert" className="card">
          The admin panel could not be reached. Please try again.
        </p>
      ) : signedIn && data.staff ? (
        <StaffContext.Provider value={data.staff}>
          <ReconfirmPrompt email={data.staff.email}>
            <AdminPanel place={place} reviewPanel={reviewPanel} staff={data.staff} />
          </ReconfirmPrompt>
        </StaffContext.Provider>
      ) : (
        <LoginScreen needsOwner={data.needsOwner === true} link={link} linkUsed={linkUsed} />
      )}
    </PageShell>
  );
}
