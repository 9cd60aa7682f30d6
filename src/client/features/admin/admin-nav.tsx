/**
 * The panel's places, as links: only those the person's role may open (shared/admin-paths.ts,
 * from `can()`). On a phone the list folds behind a button that names the place shown.
 */
import { useId, useState } from 'react';
import { ADMIN_NAV, adminPath, type AdminPlace } from '../../../shared/admin-paths.js';
import { can, type StaffRole } from '../../../shared/staff-permissions.js';
import { Link } from '../../lib/router.js';

export function AdminNav({ place, role }: { place: AdminPlace; role: StaffRole }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const items = ADMIN_NAV.filter((item) => can(role, item.needs));
  const here = place.name === 'poll' ? 'polls' : place.name;
  const hereLabel = ADMIN_NAV.find((item) => item.name === here)?.label ?? '';
  return (
    <nav className="admin-nav" aria-label="Admin panel">
      <button
        type="button"
        className="button button--secondary admin-nav__toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((shown) => !shown)}
      >
        Menu <span className="admin-nav__here">· {hereLabel}</span>
      </button>
      <ul id={listId} className={open ? 'admin-nav__list admin-nav__list--open' : 'admin-nav__list'}>
        {items.map((item) => (
          <li key={item.name}>
            <Link
              to={adminPath({ name: item.name })}
              className="admin-nav__link"
              aria-current={item.name === here ? 'page' : undefined}
              onClick={() => setOpen(false)}
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
