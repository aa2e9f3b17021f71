import { useEffect, useState } from 'react';
import type { DeliveryDetails } from '../order-details';
import { loadRequestChecks } from '../order-form';
import {
  forgetForm,
  listenForPaid,
  loadForm,
  openedPayments,
  type PaidMessage,
  type SavedForm,
  saveForm,
} from '../order-memory';

interface FormMemoryProps {
  selected: boolean;
  quantity: number;
  details: DeliveryDetails;
  /** The order is shown as placed: the form is no longer kept. */
  placed: boolean;
  /** Puts back the form as this tab last had it. Must not change between renders. */
  onRestore: (form: SavedForm) => void;
  /** This tab's payment went through in another tab. Must not change between renders. */
  onPaid: (message: PaidMessage) => void;
}

/**
 * What the order page does in the background once its flow has loaded, rendering nothing: takes
 * back the details as typed (Cancel on the payment page, or Back after a same-tab payment), keeps
 * them as they change, shows the order as placed when the payment this tab opened succeeds in
 * another tab, and fetches the request checks once an order is started, so submit finds them.
 */
export function FormMemory({ selected, quantity, details, placed, onRestore, onPaid }: FormMemoryProps) {
  // False until this tab's memory has been read, so the empty first render never overwrites it.
  const [restored, setRestored] = useState(false);

  useEffect(() => {
    const saved = loadForm();
    if (saved) onRestore(saved);
    setRestored(true);
    return listenForPaid((message) => {
      if (!openedPayments().includes(message.sessionId)) return;
      forgetForm();
      onPaid(message);
    });
  }, [onRestore, onPaid]);

  useEffect(() => {
    if (restored && !placed) saveForm({ selected, quantity, details });
  }, [selected, quantity, details, placed, restored]);

  useEffect(() => {
    if (selected) loadRequestChecks().catch(() => undefined);
  }, [selected]);

  return null;
}
