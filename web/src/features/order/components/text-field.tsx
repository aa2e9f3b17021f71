import { type InputHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';

interface FieldProps {
  label: string;
  invalid: boolean;
  className?: string;
  /** A short note under the field, announced with it (aria-describedby). */
  hint?: string | undefined;
}

type InputFieldProps = FieldProps & InputHTMLAttributes<HTMLInputElement> & { multiline?: false };
type TextareaFieldProps = FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement> & { multiline: true };

/** A labelled input or textarea; the label is the field's accessible name. */
export function TextField(props: InputFieldProps | TextareaFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const { label, invalid, className, hint } = props;
  const control = {
    id,
    'aria-invalid': invalid || undefined,
    ...(hint ? { 'aria-describedby': hintId } : {}),
  };
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {props.multiline ? (
        <textarea {...control} {...nativeProps(props)} />
      ) : (
        <input {...control} {...nativeProps(props)} />
      )}
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The props that go on the `<input>` or `<textarea>` itself. */
function nativeProps<T extends FieldProps & { multiline?: boolean }>(
  props: T,
): Omit<T, keyof FieldProps | 'multiline'> {
  const {
    label: _label,
    invalid: _invalid,
    className: _className,
    hint: _hint,
    multiline: _multiline,
    ...rest
  } = props;
  return rest;
}
