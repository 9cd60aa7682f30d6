import { Field } from './field.js';

/** A choice from a list: its label, then the list. `options`: [value, words] pairs, in order. */
export function SelectField<Value extends string>({
  label,
  value,
  onChange,
  options,
  className = 'field',
  labelHidden = false,
  disabled,
}: {
  label: string;
  value: Value;
  onChange: (value: Value) => void;
  options: readonly (readonly [Value, string])[];
  className?: string;
  /** Said to screen readers only, where the row around it already says what it is. */
  labelHidden?: boolean;
  disabled?: boolean;
}) {
  return (
    <Field label={labelHidden ? <span className="visually-hidden">{label}</span> : label} className={className}>
      {(id) => (
        <select
          id={id}
          className="input"
          value={value}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value as Value)}
        >
          {options.map(([option, words]) => (
            <option key={option} value={option}>
              {words}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
