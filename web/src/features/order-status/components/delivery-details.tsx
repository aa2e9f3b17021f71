import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { OrderPageView } from '../../../../../shared/order-page';
import { TitledCard } from '../../../components/ui/titled-card';
import { useApiClient } from '../../../lib/app-context';
import { AddressFields, bindDeliveryFields, TextField } from '../../order/public';
import { correctDeliveryDetails } from '../order-page-api';
import { DeliverToLines } from './deliver-to-lines';

type Field = 'address' | 'postcode' | 'phone';
type Errors = Partial<Record<string, string>>;
/** The order's view, the token that opens it, and where a corrected view goes. */
interface CorrectionProps {
  view: OrderPageView;
  token: string;
  onCorrected: (view: OrderPageView) => void;
}

/**
 * Where the parcel goes, and until the packing cut-off a form to correct it: the checkout's own
 * checks, then the server's (which records it in the order's history and emails a confirmation).
 */
export function DeliveryDetails({ view, token, onCorrected }: CorrectionProps) {
  const [editing, setEditing] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  // Set when the server refused (past the cut-off meanwhile): the form closes, with its reason.
  const [refusal, setRefusal] = useState<string>();
  const open = view.correctionOpenUntil !== undefined && refusal === undefined;
  return (
    <TitledCard heading="Delivery details">
      <DeliverToLines deliverTo={view.deliverTo} />
      {/* A live region present from the start, so the confirmation is announced when it appears. */}
      <div role="status">
        {confirmed ? (
          <p className="dispatch-note">
            Your delivery details are updated. We have emailed you a confirmation.
          </p>
        ) : null}
      </div>
      {refusal !== undefined ? <p role="alert">{refusal}</p> : null}
      {open && editing ? (
        <CorrectionForm
          view={view}
          token={token}
          onCancel={() => setEditing(false)}
          onRefused={setRefusal}
          onCorrected={(next) => {
            setEditing(false);
            setConfirmed(true);
            onCorrected(next);
          }}
        />
      ) : null}
      {open && !editing ? (
        <>
          <p className="hint">
            You can correct these until {view.correctionOpenUntil}, when we start packing.
          </p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setConfirmed(false);
              setEditing(true);
            }}
          >
            Correct delivery details
          </button>
        </>
      ) : null}
      {/* Only an order still to be packed: a dispatched or refunded one has nothing left to change. */}
      {!open && view.status === 'paid' && refusal === undefined ? (
        <p className="hint">
          We are packing your order, so these can no longer be changed here. To change anything, please
          contact the seller at <a href={`mailto:${view.seller.email}`}>{view.seller.email}</a> quoting your
          order reference {view.reference}.
        </p>
      ) : null}
    </TitledCard>
  );
}

function CorrectionForm({
  view,
  token,
  onCancel,
  onRefused,
  onCorrected,
}: CorrectionProps & { onCancel: () => void; onRefused: (message: string) => void }) {
  const api = useApiClient();
  const [details, setDetails] = useState<Record<Field, string>>({
    address: view.deliverTo.address,
    postcode: view.deliverTo.postcode,
    phone: view.deliverTo.phone,
  });
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // After the refused fields render: the first one takes focus, as at checkout, its message read with it.
  useEffect(() => {
    if (Object.keys(errors).length > 0)
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const bind = bindDeliveryFields(details, errors, (field, value) =>
    setDetails((current) => ({ ...current, [field]: value })),
  );

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSending(true);
    setFailed(false);
    const result = await correctDeliveryDetails(api.request, token, details);
    setSending(false);
    switch (result.kind) {
      case 'corrected':
        return onCorrected(result.view);
      case 'invalid':
        return setErrors(result.fields);
      case 'refused':
        return onRefused(result.message);
      case 'not-found':
        return onRefused('This link no longer opens your order. Please contact the seller.');
      case 'failed':
        return setFailed(true);
    }
  };

  return (
    <form ref={formRef} className="fields" aria-label="Correct delivery details" noValidate onSubmit={submit}>
      <AddressFields bind={bind} />
      <TextField label="Phone Number (Optional)" type="tel" autoComplete="tel" {...bind('phone')} />
      {failed ? (
        <p role="alert">
          We could not save your correction just now. Please check your connection and try again.
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={sending}>
          {sending ? 'Saving…' : 'Save delivery details'}
        </button>
        <button type="button" className="button button--secondary" onClick={onCancel} disabled={sending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
