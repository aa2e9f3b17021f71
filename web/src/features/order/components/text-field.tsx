import { type InputHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';

interface FieldProps {
  label: string;
  invalid: boolean;
  className?: string;
}

type InputFieldProps = FieldProps & InputHTMLAttributes<HTMLInputElement> & { multiline?: false };
type TextareaFieldProps = FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement> & { multiline: true };

/** A labelled input or textarea; the label is the field's accessible name. */
export function TextField(props: InputFieldProps | TextareaFieldProps) {
  const id = useId();
  if (props.multiline) {
    const { label, invalid, className, multiline: _multiline, ...rest } = props;
    return (
      <div className={className ? `field ${className}` : 'field'}>
        <label htmlFor={id}>{label}</label>
        <textarea id={id} aria-invalid={invalid || undefined} {...rest} />
      </div>
    );
  }
  const { label, invalid, className, multiline: _multiline, ...rest } = props;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={invalid || undefined} {...rest} />
    </div>
  );
}
