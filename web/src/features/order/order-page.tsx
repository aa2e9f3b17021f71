import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { quoteOrder } from '../../../../shared/pricing';
import { DAPHNIA, PRODUCT_NAME } from '../../../../shared/product';
import { useToast } from '../../components/toast/toast-context';
import { ToastViewport } from '../../components/toast/toast-viewport';
import { LockIcon } from '../../components/ui/icons';
import { useApiClient, useAppConfig } from '../../lib/app-context';
import { policyPaths } from '../../lib/paths';
import { DispatchNote } from './components/dispatch-note';
import { ImportantInformation } from './components/important-information';
import { ProductCard } from './components/product-card';
import type { RepeatChoiceValue } from './components/repeat-choice';
import { ShopBanner } from './components/shop-banner';
import { useShopStatus } from './hooks/use-shop-status';
import { type DetailField, EMPTY_DETAILS, type FieldErrors } from './order-details';
import type { CheckToast, OrderPageControls } from './order-flow';
import { loadedOrderFlow, loadOrderFlow, type OrderFlow, useOrderFlow } from './order-flow-loader';
import type { PaidMessage, SavedForm } from './order-memory';

interface ReceivedOrder {
  quantity: number;
  email: string;
  reference: string | undefined;
}

/**
 * The order form, or the Order-received view once a request is taken. What shows before an order
 * starts is here; the rest is the order flow, loaded once hydrated (order-flow-loader.ts).
 */
export function OrderPage() {
  const order = useOrderState();
  const { selected, quantity, details, placed, received, submitting } = order;
  const flow = useOrderFlow();
  const shopStatus = useShopStatus();
  const mode = shopStatus?.mode;
  const paused = mode === 'paused';
  const requests = mode === 'requests';
  const { formRef, handleSubmit, updateField, toggleProduct } = useOrderActions(order, requests, flow);

  // Shown once an order is started and the flow has loaded (in practice, long before the click);
  // never while the shop is paused, though what was typed comes back when it reopens.
  const started = selected && !paused && flow ? flow : undefined;

  return (
    <>
      <title>Live Aquatics Order</title>
      {flow ? (
        <flow.FormMemory
          selected={selected}
          quantity={quantity}
          details={details}
          placed={placed !== null}
          onRestore={order.restoreForm}
          onPaid={order.setPlaced}
        />
      ) : null}
      <header className="page-header">
        <h1>Live Aquatics Order</h1>
        <p className="subtitle">Fresh live stock delivered within the UK</p>
      </header>

      <ShopBanner status={shopStatus} />

      {placed && flow ? (
        <flow.OrderPlaced message={placed} onPlaceAnother={order.placeAnotherOrder} />
      ) : received && flow ? (
        <flow.OrderReceived
          quantity={received.quantity}
          email={received.email}
          reference={received.reference}
          onSubmitAnother={order.startAnotherOrder}
        />
      ) : (
        // noValidate: our checks run in their fixed order and speak beside the fields and in toasts; the
        // `required` attributes still tell assistive technology which fields are needed.
        <form ref={formRef} className="order-form" noValidate onSubmit={handleSubmit}>
          <ProductSection
            order={order}
            started={started}
            paused={paused}
            requests={requests}
            onToggle={toggleProduct}
          />

          {started ? (
            <started.DeliveryDetails details={details} errors={order.errors} onChange={updateField} />
          ) : null}

          {/* Paused: nothing to fill in and no dispatch to promise; the banner above says why. */}
          {paused ? null : (
            <CheckoutSection
              started={started}
              quantity={quantity}
              requests={requests}
              submitting={submitting}
              roomDay={shopStatus?.dispatchDate}
            />
          )}
        </form>
      )}

      <ImportantInformation />
    </>
  );
}

/** The order being made, its checks' messages, a submit in progress, and what replaces the form. */
function useOrderState() {
  const [selected, setSelected] = useState(false);
  const [quantity, setQuantity] = useState<number>(DAPHNIA.min);
  const [repeat, setRepeat] = useState<RepeatChoiceValue>('once');
  const [details, setDetails] = useState(EMPTY_DETAILS);
  const [placed, setPlaced] = useState<PaidMessage | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [received, setReceived] = useState<ReceivedOrder | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const cardRef = useRef<HTMLButtonElement>(null);
  const focusCardOnReturn = useRef(false);

  const restoreForm = useCallback((saved: SavedForm) => {
    setSelected(saved.selected);
    setQuantity(saved.quantity);
    setDetails(saved.details);
  }, []);

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
    setRepeat('once');
    setReceived(null);
  };

  const placeAnotherOrder = () => {
    setDetails(EMPTY_DETAILS);
    setErrors({});
    setPlaced(null);
    startAnotherOrder();
  };

  return {
    selected,
    setSelected,
    quantity,
    setQuantity,
    repeat,
    setRepeat,
    details,
    setDetails,
    placed,
    setPlaced,
    errors,
    setErrors,
    received,
    setReceived,
    submitting,
    setSubmitting,
    cardRef,
    restoreForm,
    startAnotherOrder,
    placeAnotherOrder,
  };
}

type OrderState = ReturnType<typeof useOrderState>;

/** The order flow, loaded once hydrated, given the form's events and the page's state and means. */
function useOrderActions(
  order: ReturnType<typeof useOrderState>,
  requests: boolean,
  flow: OrderFlow | undefined,
) {
  const { selected, quantity, repeat, details, errors, setErrors, setSubmitting, setReceived } = order;
  const checkToast = useRef<CheckToast | null>(null);
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const toasts = useToast();
  const api = useApiClient();

  // Once hydrated, the order flow loads: long before a customer can click, in practice. After
  // the first render, so the HTML written at build time is taken over unchanged.
  useEffect(() => {
    loadOrderFlow().catch(() => undefined);
  }, []);

  const closeCheckToast = (kind: CheckToast['kind']) => {
    if (checkToast.current?.kind !== kind) return;
    toasts.dismiss(checkToast.current.id);
    checkToast.current = null;
  };

  const controls = (): OrderPageControls => ({
    selected,
    quantity,
    repeat: !requests && repeat !== 'once' ? repeat : undefined,
    details,
    errors,
    setErrors,
    toasts,
    checkToast,
    closeCheckToast,
    focusCard: () => order.cardRef.current?.focus(),
    focusField: (field: DetailField) => {
      const element = formRef.current?.elements.namedItem(field);
      if (element instanceof HTMLElement) element.focus();
    },
    api,
    inFlight,
    setSubmitting,
    takesRequests: requests,
    onReceived: (request, reference) =>
      setReceived({ quantity: request.quantity, email: request.email, reference }),
  });

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const page = controls();
    // Loaded by now in practice (it loads right after hydration); if not, the submit waits for it.
    const loaded = loadedOrderFlow();
    if (loaded) loaded.submitOrder(page);
    else
      void loadOrderFlow().then(
        (later) => later.submitOrder(page),
        () => undefined,
      );
  };

  const updateField = (field: DetailField, value: string) => {
    order.setDetails((current) => ({ ...current, [field]: value }));
    loadedOrderFlow()?.recheckField(controls(), field, value);
  };

  const toggleProduct = () => {
    if (!selected) closeCheckToast('product');
    // A load that failed after hydration is tried again when the customer starts an order.
    if (!flow) void loadOrderFlow().catch(() => undefined);
    order.setSelected((current) => !current);
  };

  return { formRef, handleSubmit, updateField, toggleProduct };
}

/** The checkout card: summary (a hint before), dispatch note, submit, toasts and fine print. */
function CheckoutSection({
  started,
  quantity,
  requests,
  submitting,
  roomDay,
}: {
  started: OrderFlow | undefined;
  quantity: number;
  requests: boolean;
  submitting: boolean;
  roomDay: string | null | undefined;
}) {
  const { dispatchCutoffHours } = useAppConfig();
  const flow = useOrderFlow();
  return (
    <section className="card checkout" aria-label="Checkout">
      {started ? (
        <started.OrderSummary quote={quoteOrder(quantity)} />
      ) : (
        <p className="hint">
          Select {PRODUCT_NAME} above to choose how many bottles you need and enter your delivery details.
        </p>
      )}
      <DispatchNote plan={flow?.dispatchPlan(new Date(), dispatchCutoffHours, roomDay)} />
      <button type="submit" className="button button--primary button--block" disabled={submitting}>
        <LockIcon />
        {submitting ? 'Processing...' : requests ? 'Send order request' : 'Secure Checkout with Stripe'}
      </button>
      {/* In the flow under the button, never over the page: it cannot cover a field or the total. */}
      <ToastViewport />
      <p className="fine-print">
        {requests
          ? 'Nothing is charged now: we will email you to confirm your order and send a secure payment link.'
          : "You will pay on Stripe's secure page, which opens in a new tab."}
      </p>
      <p className="fine-print">
        Before you pay, please read our <Link to={policyPaths.terms}>Terms of sale</Link> and{' '}
        <Link to={policyPaths.privacy}>Privacy notice</Link>.
      </p>
    </section>
  );
}

/** The product card, and once an order is started its bottles and (outside requests) its repeat. */
function ProductSection({
  order,
  started,
  paused,
  requests,
  onToggle,
}: {
  order: OrderState;
  started: OrderFlow | undefined;
  paused: boolean;
  requests: boolean;
  onToggle: () => void;
}) {
  return (
    <section className="card" aria-label="Product">
      <ProductCard
        ref={order.cardRef}
        selected={order.selected && !paused}
        disabled={paused}
        onToggle={onToggle}
      />
      {started ? <started.QuantityStepper quantity={order.quantity} onChange={order.setQuantity} /> : null}
      {/* A standing order needs a payment page: none while the shop takes order requests. */}
      {started && !requests ? (
        <started.RepeatChoice value={order.repeat} quantity={order.quantity} onChange={order.setRepeat} />
      ) : null}
    </section>
  );
}
