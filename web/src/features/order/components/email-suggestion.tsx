import type { MouseEvent } from 'react';

interface EmailSuggestionProps {
  /** The corrected address, as suggestEmailDomain gave it. */
  email: string;
  onAccept: (email: string) => void;
}

/**
 * "Did you mean zoe@gmail.com?" under the email field, with a button that takes the suggestion.
 * Offered, never imposed: the address as typed may be right. Part of the field's hint, so the
 * field's description reads it too.
 */
export function EmailSuggestion({ email, onAccept }: EmailSuggestionProps) {
  const accept = (event: MouseEvent<HTMLButtonElement>) => {
    // The button goes once the address is corrected: focus goes back to the field, not to the page.
    const field = event.currentTarget.form?.elements.namedItem('email');
    onAccept(email);
    if (field instanceof HTMLElement) field.focus();
  };
  return (
    <>
      Did you mean <strong>{email}</strong>?{' '}
      <button type="button" className="field__suggestion" onClick={accept}>
        Use this address
      </button>
    </>
  );
}
