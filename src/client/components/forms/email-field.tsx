import { Field } from './field.js';

/** An e-mail address: the phone's e-mail keyboard and the browser's autofill. The schema checks it on sending. */
export function EmailField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label}>
      {(id) => (
        <input
          id={id}
          className="input"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
