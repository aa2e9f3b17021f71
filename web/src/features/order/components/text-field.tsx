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
  const described = props.hint ? { 'aria-describedby': hintId } : {};
  const hint = props.hint ? (
    <p id={hintId} className="field__hint">
      {props.hint}
    </p>
  ) : null;
  if (props.multiline) {
    const { label, invalid, className, hint: _hint, multiline: _multiline, ...rest } = props;
    return (
      <div className={className ? `field ${className}` : 'field'}>
        <label htmlFor={id}>{label}</label>
        <textarea id={id} aria-invalid={invalid || undefined} {...described} {...rest} />
        {hint}
      </div>
    );
  }
  const { label, invalid, className, hint: _hint, multiline: _multiline, ...rest } = props;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={invalid || undefined} {...described} {...rest} />
      {hint}
    </div>
  );
}
