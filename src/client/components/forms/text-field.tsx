import type { InputHTMLAttributes, Ref } from 'react';
import { Field } from './field.js';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'className'>;

/**
 * One line of text (a name, an e-mail, a password, a date, a time): its label, the box, and
 * an optional hint the box is described by. Any other input attribute passes through.
 */
export function TextField({
  label,
  hint,
  value,
  onChange,
  inputRef,
  ...input
}: InputProps & {
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <Field label={label} hint={hint}>
      {(id, hintId) => (
        <input
          {...input}
          ref={inputRef}
          id={id}
          className="input"
          aria-describedby={hintId}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
