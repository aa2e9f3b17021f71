import { type ReactNode, useId } from 'react';

/** One answer of a radio group: its value, and the words beside its button. */
export interface RadioOption<V extends string | number> {
  value: V;
  label: ReactNode;
}

interface RadioChoiceProps<V extends string | number> {
  legend: string;
  options: readonly RadioOption<V>[];
  /** The answer chosen; undefined: none of the options. */
  value: V | undefined;
  onChange: (value: V) => void;
  /** What follows the options inside the group (what the choice costs, its button). */
  children?: ReactNode;
}

/**
 * A question answered by one of a few native radio buttons (arrow keys move between them), in the
 * shop's look: the legend, the options side by side, then `children`. The order page's repeat and a
 * standing order's bottles are asked this way.
 */
export function RadioChoice<V extends string | number>({
  legend,
  options,
  value,
  onChange,
  children,
}: RadioChoiceProps<V>) {
  const name = useId();
  return (
    <fieldset className="repeat">
      <legend className="repeat__label">{legend}</legend>
      <div className="repeat__options">
        {options.map((option) => (
          <label key={option.value} className="repeat__option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
      {children}
    </fieldset>
  );
}
