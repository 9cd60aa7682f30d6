/** A list section of the admin page: its heading with a count, then its items, or a line saying there are none. */
import { useId, type ReactNode } from 'react';

export function AdminListSection({
  title,
  count,
  empty,
  children,
  more,
}: {
  title: string;
  count: number;
  /** Said in place of the list when it has no items. */
  empty: string;
  /** The list's items (li elements). */
  children: ReactNode;
  /** Under the list, when it shows only part of `count`: a way to show more. */
  more?: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className="admin-section" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {title} <span className="admin-count">{count}</span>
      </h2>
      {count === 0 ? <p className="admin-empty">{empty}</p> : <ul className="admin-list">{children}</ul>}
      {more}
    </section>
  );
}
