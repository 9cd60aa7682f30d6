/**
 * The admin panel's places and their addresses (issue 36): read by the app to draw the place
 * and by the server to answer the address (200 for a place, the 404 page otherwise).
 */
import type { StaffAction } from './staff-permissions.js';

export type AdminPlace =
  | { name: 'today' | 'polls' | 'suggestions' | 'staff' | 'audit' | 'account' }
  | { name: 'poll'; pollNumber: number; tab: 'poll' | 'integrity' };

export type AdminPlaceName = AdminPlace['name'];

/** The places the navigation lists, in its order, each with what a role must be allowed to see it. */
export const ADMIN_NAV: readonly { name: Exclude<AdminPlaceName, 'poll'>; label: string; needs: StaffAction }[] = [
  { name: 'today', label: 'Today', needs: 'self' },
  { name: 'polls', label: 'Polls', needs: 'polls.read' },
  { name: 'suggestions', label: 'Suggestions', needs: 'suggestions.read' },
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

const SIMPLE = ['polls', 'suggestions', 'staff', 'audit', 'account'] as const;

/** The place at a path (without its query; one trailing slash allowed), or null when it is none. */
export function parseAdminPath(rawPath: string): AdminPlace | null {
  const path = rawPath.length > 1 ? rawPath.replace(/\/$/, '') : rawPath;
  if (path === '/admin') return { name: 'today' };
  const match = /^\/admin\/([a-z]+)(?:\/([1-9]\d{0,8})(\/integrity)?)?$/.exec(path);
  if (!match) return null;
  const [, name, number, integrity] = match;
  if (number !== undefined) {
    return name === 'polls'
      ? { name: 'poll', pollNumber: Number(number), tab: integrity ? 'integrity' : 'poll' }
      : null;
  }
  return (SIMPLE as readonly string[]).includes(name ?? '') ? { name: name as (typeof SIMPLE)[number] } : null;
}
