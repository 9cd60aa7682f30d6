import { useId, type ReactNode } from 'react';

/**
 * A form field: its label, then the control, drawn by `children` with the id the label names;
 * with a `hint`, the hint under it and its id for the control's `aria-describedby`.
 */
export function Field({
  label,
  hint,
  className = 'field',
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
  children: (id: string, hintId: string | undefined) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={className}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children(id, hintId)}
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
