import type { ReactNode } from 'react';
import { Field } from './field.js';

/** Text of a few lines, such as a poll's question: its label, then the box. */
export function TextAreaField({
  label,
  value,
  onChange,
  rows,
  maxLength,
  required = false,
  className,
}: {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  rows: number;
  maxLength: number;
  required?: boolean;
  /** Added to the box's own class. */
  className?: string;
}) {
  return (
    <Field label={label}>
      {(id) => (
        <textarea
          id={id}
          className={className ? `input ${className}` : 'input'}
          rows={rows}
          required={required}
          maxLength={maxLength}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
