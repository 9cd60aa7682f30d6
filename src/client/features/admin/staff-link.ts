/**
 * An invite's or one-time sign-in link's token, read from the address's fragment
 * (`/admin#invite=…`, shared/staff-links.ts) and taken out of the address bar at once, so it stays
 * in no history entry, bookmark or shared screen. A link pasted while the page is open counts too.
 */
import { useEffect, useState } from 'react';
import { readStaffLink } from '../../../shared/staff-links.js';

export type StaffLinkInAddress = NonNullable<ReturnType<typeof readStaffLink>>;

export function useStaffLink(): [StaffLinkInAddress | null, () => void] {
  const [link, setLink] = useState<StaffLinkInAddress | null>(null);
  useEffect(() => {
    const take = () => {
      const found = readStaffLink(window.location.hash);
      if (!found) return;
      window.history.replaceState(window.history.state, '', window.location.href.split('#')[0]);
      setLink(found);
    };
    take();
    window.addEventListener('hashchange', take);
    return () => window.removeEventListener('hashchange', take);
  }, []);
  return [link, () => setLink(null)];
}
