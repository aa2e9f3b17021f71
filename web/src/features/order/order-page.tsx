import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { quoteOrder } from '../../../../shared/pricing';
import { DAPHNIA, PRODUCT_NAME } from '../../../../shared/product';
import { useToast } from '../../components/toast/toast-context';
import { ToastViewport } from '../../components/toast/toast-viewport';
import { LockIcon } from '../../components/ui/icons';
import { policyPaths } from '../policies/policy-paths';
import { DeliveryDetails } from './components/delivery-details';
import { DispatchNote } from './components/dispatch-note';
import { ImportantInformation } from './components/important-information';
import { OrderPlaced } from './components/order-placed';
import { OrderReceived } from './components/order-received';
import { OrderSummary } from './components/order-summary';
import { ProductCard } from './components/product-card';
import { QuantityStepper } from './components/quantity-stepper';
import { useCheckout } from './hooks/use-checkout';
import { useShopStatus } from './hooks/use-shop-status';
import {
  checkField,
  type DetailField,
  EMPTY_DETAILS,
  type FieldErrors,
  loadRequestChecks,
  type OrderValidation,
  validateOrder,
} from './order-form';
import { forgetForm, listenForPaid, loadForm, openedPayments, saveForm } from './order-memory';

interface ReceivedOrder {
  quantity: number;
  email: string;
}

/** The order form, and the Order-received view that replaces it once a request is taken. */
export function OrderPage() {
  const [selected, setSelected] = useState(false);
  const [quantity, setQuantity] = useState<number>(DAPHNIA.min);
  const [details, setDetails] = useState(EMPTY_DETAILS);
  // False until this tab's memory has been read, so the empty first render never overwrites it.
  const [restored, setRestored] = useState(false);
  const [placed, setPlaced] = useState<{ reference: string; held: boolean } | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  // The toast a failed check raised, closed once its problem is fixed.
  const checkToast = useRef<{ id: number; kind: 'product' | 'fields' } | null>(null);
  const [received, setReceived] = useState<ReceivedOrder | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const cardRef = useRef<HTMLButtonElement>(null);
  const focusCardOnReturn = useRef(false);
  const { toast, dismiss, dismissAll } = useToast();
  const { checkout, submitting } = useCheckout();
  const shopStatus = useShopStatus();
  const paused = shopStatus?.mode === 'paused';

  const focusField = (field: DetailField) => {
    const element = formRef.current?.elements.namedItem(field);
    if (element instanceof HTMLElement) element.focus();
  };

  // Back from the payment page (Cancel, or Back after a same-tab payment), the details are as
  // typed. Read after the first render, so HTML written at build time is taken over unchanged.
  useEffect(() => {
    const saved = loadForm();
    if (saved) {
      setSelected(saved.selected);
      setQuantity(saved.quantity);
      setDetails(saved.details);
    }
    setRestored(true);
  }, []);

  useEffect(() => {
    if (restored && !placed) saveForm({ selected, quantity, details });
  }, [selected, quantity, details, placed, restored]);

  // The payment this tab opened went through in the other tab: show the order as placed.
  useEffect(
    () =>
      listenForPaid((message) => {
        if (!openedPayments().includes(message.sessionId)) return;
        forgetForm();
        setPlaced({ reference: message.reference, held: message.held });
      }),
    [],
  );

  // The customer has started an order: fetch the request checks now, so submit finds them loaded.
  useEffect(() => {
    if (selected) loadRequestChecks().catch(() => undefined);
  }, [selected]);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateOrder(selected, quantity, details);
    if (result instanceof Promise) void result.then(submitChecked);
    else submitChecked(result);
  };

  const submitChecked = (result: OrderValidation) => {
    if (!result.ok) {
      setErrors(result.errors);
      checkToast.current = result.toast
        ? { id: toast(result.toast), kind: result.focus === 'product' ? 'product' : 'fields' }
        : null;
      if (!result.toast) dismissAll();
      if (result.focus === 'product') cardRef.current?.focus();
      else focusField(result.focus);
      return;
    }
    setErrors({});
    // Old messages no longer apply once the order goes through.
    dismissAll();
    checkToast.current = null;
    // Called without awaiting first: the payment tab must open inside this click.
    void checkout(result.request).then((outcome) => {
      if (outcome === 'received')
        setReceived({ quantity: result.request.quantity, email: result.request.email });
    });
  };

  const closeCheckToast = (kind: 'product' | 'fields') => {
    if (checkToast.current?.kind !== kind) return;
    dismiss(checkToast.current.id);
    checkToast.current = null;
  };

  const updateField = (field: DetailField, value: string) => {
    setDetails((current) => ({ ...current, [field]: value }));
    // A field that was refused is checked again as it changes, so its message goes once it is fixed.
    if (errors[field] === undefined) return;
    const next = { ...errors };
    const message = checkField(field, value);
    if (message === undefined) delete next[field];
    else next[field] = message;
    setErrors(next);
    if (Object.keys(next).length === 0) closeCheckToast('fields');
  };

  const toggleProduct = () => {
    if (!selected) closeCheckToast('product');
    setSelected((current) => !current);
  };

  // Back from the Order-received view, focus goes where the next order starts, not to <body>.
  useEffect(() => {
    if (received || placed || !focusCardOnReturn.current) return;
    focusCardOnReturn.current = false;
    cardRef.current?.focus();
  }, [received, placed]);

  const startAnotherOrder = () => {
    focusCardOnReturn.current = true;
    setSelected(false);
    setQuantity(DAPHNIA.min);
    setReceived(null);
  };

  const placeAnotherOrder = () => {
    setDetails(EMPTY_DETAILS);
    setErrors({});
    setPlaced(null);
    startAnotherOrder();
  };

  return (
    <>
      <title>Live Aquatics Order</title>
      <header className="page-header">
        <h1>Live Aquatics Order</h1>
        <p className="subtitle">Fresh live stock delivered within the UK</p>
      </header>

      {shopStatus && shopStatus.mode !== 'open' && shopStatus.message ? (
        <div className={`card shop-banner shop-banner--${shopStatus.mode}`} role="status">
          <h2 className="shop-banner__title">
            {paused ? 'We are not taking orders at the moment' : 'We are taking order requests'}
          </h2>
          <p>{shopStatus.message}</p>
        </div>
      ) : null}

      {placed ? (
        <OrderPlaced reference={placed.reference} held={placed.held} onPlaceAnother={placeAnotherOrder} />
      ) : received ? (
        <OrderReceived
          quantity={received.quantity}
          email={received.email}
          onSubmitAnother={startAnotherOrder}
        />
      ) : (
        // noValidate: our checks run in their fixed order and speak beside the fields and in toasts; the
        // `required` attributes still tell assistive technology which fields are needed.
        <form ref={formRef} className="order-form" noValidate onSubmit={handleSubmit}>
          <section className="card" aria-label="Product">
            <ProductCard ref={cardRef} selected={selected} onToggle={toggleProduct} />
            {selected ? <QuantityStepper quantity={quantity} onChange={setQuantity} /> : null}
          </section>

          {selected ? <DeliveryDetails details={details} errors={errors} onChange={updateField} /> : null}

          <section className="card checkout" aria-label="Checkout">
            {selected ? (
              <OrderSummary quote={quoteOrder(quantity)} />
            ) : (
              <p className="hint">
                Select {PRODUCT_NAME} above to choose how many bottles you need and enter your delivery
                details.
              </p>
            )}
            <DispatchNote />
            <button
              type="submit"
              className="button button--primary button--block"
              disabled={submitting || paused}
            >
              <LockIcon />
              {submitting ? 'Processing...' : 'Secure Checkout with Stripe'}
            </button>
            {/* In the flow under the button, never over the page: it cannot cover a field or the total. */}
            <ToastViewport />
            <p className="fine-print">You will pay on Stripe's secure page, which opens in a new tab.</p>
            <p className="fine-print">
              Before you pay, please read our <Link to={policyPaths.terms}>Terms of sale</Link> and{' '}
              <Link to={policyPaths.privacy}>Privacy notice</Link>.
            </p>
          </section>
        </form>
      )}

      <ImportantInformation />
    </>
  );
}
