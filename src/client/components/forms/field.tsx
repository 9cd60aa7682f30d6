import { useId, type ReactNode } from 'react';

/** A form field: its label, then the control, drawn by `children` with the id the label names. */
export function Field({ label, children }: { label: ReactNode; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children(id)}
    </div>
  );
}
