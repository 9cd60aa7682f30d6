/**
 * One choice from a few, as native radio buttons in a fieldset, drawn as chips or as a
 * segmented control. Native radios bring what assistive technology expects of a radio group
 * with no script: the legend as its name, Tab into the group, arrow keys to move the choice,
 * "2 of 5, selected" announced. Nothing chosen yet is allowed: Tab then lands on the first.
 */
import { useId, type ReactNode } from 'react';
import './choice-group.css';

export interface Choice<V extends string> {
  value: V;
  label: string;
}

export function ChoiceGroup<V extends string>({
  legend,
  hideLegend = false,
  choices,
  value,
  onChange,
  look,
  describedBy,
  disabled = false,
}: {
  legend: ReactNode;
  /** The legend still names the group for screen readers, when a heading above says it already. */
  hideLegend?: boolean;
  choices: readonly Choice<V>[];
  value: V | null;
  onChange: (value: V) => void;
  /** chips: separate pills that wrap; segments: one bar of joined buttons. */
  look: 'chips' | 'segments';
  describedBy?: string;
  disabled?: boolean;
}) {
  const name = useId();
  return (
    <fieldset className={`choice-group choice-group--${look}`} aria-describedby={describedBy} disabled={disabled}>
      <legend className={hideLegend ? 'visually-hidden' : 'choice-group__legend'}>{legend}</legend>
      <div className="choice-group__choices">
        {choices.map((choice) => (
          <label key={choice.value} className="choice-group__choice">
            <input
              type="radio"
              className="choice-group__input"
              name={name}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
            />
            <span className="choice-group__label">{choice.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
