import { type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from 'react';
import { AlertIcon } from '../../../components/ui/more-icons';

interface FieldProps {
  label: string;
  /** The problem with the value, shown beside the field and announced with it; undefined when fine. */
  error?: string | undefined;
  className?: string;
  /** A short note under the field, announced with it (aria-describedby); it may hold a button. */
  hint?: ReactNode;
}

type InputFieldProps = FieldProps & InputHTMLAttributes<HTMLInputElement> & { multiline?: false };
type TextareaFieldProps = FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement> & { multiline: true };

/**
 * A labelled input or textarea; the label is the field's accessible name. Its error sits between
 * label and control, where eyes and screen magnifiers already are, and is linked to the control
 * with aria-describedby: read when the field is focused, and not a live region, so it is
 * announced once rather than again on every keystroke.
 */
export function TextField(props: InputFieldProps | TextareaFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const { label, error, className, hint } = props;
  const describedBy = [error ? errorId : undefined, hint ? hintId : undefined].filter(Boolean).join(' ');
  const control = {
    id,
    'aria-invalid': error ? true : undefined,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
  };
  const classes = ['field', className, error ? 'field--invalid' : undefined].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      <label htmlFor={id}>{label}</label>
      {error ? (
        <p id={errorId} className="field__error">
          <AlertIcon className="field__error-icon" />
          <span>
            <span className="visually-hidden">Error:</span> {error}
          </span>
        </p>
      ) : null}
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
    error: _error,
    className: _className,
    hint: _hint,
    multiline: _multiline,
    ...rest
  } = props;
  return rest;
}
