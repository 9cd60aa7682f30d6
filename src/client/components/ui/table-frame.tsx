/**
 * A table that scrolls sideways on its own when wider than the screen: a named region a
 * keyboard can focus (and so scroll), the column headings, then the rows `children` draws.
 */
import type { ReactNode } from 'react';
import './table-frame.css';

export function TableFrame({
  label,
  columns,
  actions = false,
  className,
  children,
}: {
  /** The region's name, for screen readers: "Audit log", "Networks by votes". */
  label: string;
  columns: readonly string[];
  /** A last column of buttons, its heading said to screen readers only. */
  actions?: boolean;
  /** Added to the table's own class. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-frame" role="region" aria-label={label} tabIndex={0}>
      <table className={className ? `data-table ${className}` : 'data-table'}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
