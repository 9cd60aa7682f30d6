/**
 * The admin panel's places and their addresses (issue 36): read by the app to draw the place
 * and by the server to answer the address (200 for a place, the 404 page otherwise).
 */
import type { StaffAction } from './staff-permissions.js';
import type { AdminPlace } from './admin-place.js';

export type { AdminPlace } from './admin-place.js';
export { parseAdminPath } from './admin-place.js';

export type AdminPlaceName = AdminPlace['name'];

/** The places the navigation lists, in its order, each with what a role must be allowed to see it. */
export const ADMIN_NAV: readonly { name: Exclude<AdminPlaceName, 'poll'>; label: string; needs: StaffAction }[] = [
  { name: 'today', label: 'Today', needs: 'self' },
  { name: 'polls', label: 'Polls', needs: 'polls.read' },
  { name: 'suggestions', label: 'Suggestions', needs: 'suggestions.read' },
  { name: 'topics', label: 'Topics', needs: 'topics.manage' },
  { name: 'staff', label: 'Staff', needs: 'staff.manage' },
  { name: 'audit', label: 'Audit log', needs: 'audit.read' },
  { name: 'account', label: 'Your sign-in', needs: 'self' },
];

/** What a role must be allowed to open a place. */
export function placeNeeds(place: AdminPlace): StaffAction {
  if (place.name === 'poll') return place.tab === 'integrity' ? 'integrity.read' : 'polls.read';
  return ADMIN_NAV.find((item) => item.name === place.name)?.needs ?? 'self';
}

export function adminPath(place: AdminPlace): string {
  switch (place.name) {
    case 'today':
      return '/admin';
    case 'poll':
      return `/admin/polls/${place.pollNumber}${place.tab === 'integrity' ? '/integrity' : ''}`;
    default:
      return `/admin/${place.name}`;
  }
}
