/**
 * The answer options of a poll or a suggestion: 2 to 6 fields. Remove shows only while there are
 * more than 2, Add only while there are fewer than 6 (spec section 5). Blank fields may stay:
 * the schema drops them when the form is sent.
 */
import { OPTIONS_MAX, OPTIONS_MIN, OPTION_MAX_LENGTH } from '../../../shared/limits.js';
import './options-editor.css';

export const emptyOptions = (): string[] => Array.from({ length: OPTIONS_MIN }, () => '');

export function OptionsEditor({
  options,
  onChange,
  addClassName,
}: {
  options: string[];
  onChange: (options: string[]) => void;
  /** The form's own placing of "+ Add option". */
  addClassName?: string;
}) {
  return (
    <fieldset className="options-editor">
      <legend className="field__label">{`Answer options (${OPTIONS_MIN} to ${OPTIONS_MAX})`}</legend>
      {options.map((option, index) => (
        <div key={index} className="options-editor__option">
          <input
            className="input"
            aria-label={`Option ${index + 1}`}
            placeholder={`Option ${index + 1}`}
            maxLength={OPTION_MAX_LENGTH}
            value={option}
            onChange={(e) => onChange(options.map((o, i) => (i === index ? e.target.value : o)))}
          />
          {options.length > OPTIONS_MIN && (
            <button
              type="button"
              className="button button--quiet options-editor__remove"
              aria-label={`Remove option ${index + 1}`}
              onClick={() => onChange(options.filter((_, i) => i !== index))}
            >
              ×
            </button>
          )}
        </div>
      ))}
      {options.length < OPTIONS_MAX && (
        <button
          type="button"
          className={addClassName ? `button button--quiet ${addClassName}` : 'button button--quiet'}
          onClick={() => onChange([...options, ''])}
        >
          + Add option
        </button>
      )}
    </fieldset>
  );
}
