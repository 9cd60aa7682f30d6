/**
 * The admin panel and its integrity review: staff-only screens, behind one small lazy part of
 * their own. The public entry then names one file for them instead of the dozen the panel and
 * the review import (their code, stylesheets and the schemas), and every first visit's entry
 * is that much lighter (issue 35 item 5); staff pay one more small request on /admin.
 */
import type { AdminPlace } from '../../../shared/admin-place.js';
import { lazyPart } from '../../lib/lazy-part.js';

const AdminPage = lazyPart('features/admin/admin-page.tsx', () => import('../../features/admin/admin-page.js'));
/** A poll's integrity review in the admin panel: loaded when staff open one. */
const IntegrityView = lazyPart(
  'features/integrity/integrity-view.tsx',
  () => import('../../features/integrity/integrity-view.js'),
);

export default function StaffScreen({ place }: { place: AdminPlace }) {
  return <AdminPage place={place} reviewPanel={IntegrityView} />;
}
