import { DAPHNIA } from '../../../../shared/product';
import type { DeliveryDetails } from './order-form';

/**
 * What the order page remembers in this tab and tells other tabs: the form, in sessionStorage until
 * paid (so "Cancel and return" and Back find it as typed); each payment page opened, so the success
 * page can offer the way back; and a BroadcastChannel message once paid, so the opener shows the
 * order as placed instead of a form that could pay again.
 */
export interface SavedForm {
  selected: boolean;
  quantity: number;
  details: DeliveryDetails;
}

const FORM_KEY = 'live-aquatics:order-form';
const OPENED_KEY = 'live-aquatics:opened-payments';
const PAYMENT_URL_PREFIX = 'live-aquatics:payment-url:';
const CHANNEL = 'live-aquatics:orders';

export interface PaidMessage {
  type: 'paid';
  sessionId: string;
  reference: string;
  /** The payment was received but the order is held for the merchant to check. */
  held: boolean;
  /** The payment is with the customer's bank (a Direct Debit): the order is placed, not yet paid. */
  pending: boolean;
}

function storage(kind: 'session' | 'local'): Storage | undefined {
  try {
    return kind === 'session' ? window.sessionStorage : window.localStorage;
  } catch {
    // Storage can be switched off (or throw in a sandboxed frame): the page works without memory.
    return undefined;
  }
}

function readJson(store: Storage | undefined, key: string): unknown {
  try {
    const raw = store?.getItem(key);
    return raw ? JSON.parse(raw) : undefined;
  } catch {
    return undefined;
  }
}

function write(store: Storage | undefined, key: string, value: string): void {
  try {
    store?.setItem(key, value);
  } catch {
    // Full or disabled storage: forgetting is the safe failure.
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The saved form, checked field by field: storage is outside data like any other. */
export function loadForm(): SavedForm | undefined {
  const saved = readJson(storage('session'), FORM_KEY);
  if (!isRecord(saved) || !isRecord(saved.details)) return undefined;
  const quantity =
    typeof saved.quantity === 'number' &&
    saved.quantity >= DAPHNIA.min &&
    saved.quantity <= DAPHNIA.max &&
    saved.quantity % DAPHNIA.step === 0
      ? saved.quantity
      : DAPHNIA.min;
  const details = saved.details;
  return {
    selected: saved.selected === true,
    quantity,
    details: {
      name: text(details.name),
      email: text(details.email),
      phone: text(details.phone),
      address: text(details.address),
      postcode: text(details.postcode),
    },
  };
}

export function saveForm(form: SavedForm): void {
  write(storage('session'), FORM_KEY, JSON.stringify(form));
}

export function forgetForm(): void {
  storage('session')?.removeItem(FORM_KEY);
}

/** Notes a payment page this tab opened: its session (to recognise the success) and its address. */
export function rememberPayment(sessionId: string, url: string): void {
  const opened = openedPayments();
  write(storage('session'), OPENED_KEY, JSON.stringify([...opened.slice(-9), sessionId]));
  write(storage('local'), `${PAYMENT_URL_PREFIX}${sessionId}`, url);
}

export function openedPayments(): string[] {
  const opened = readJson(storage('session'), OPENED_KEY);
  return Array.isArray(opened) ? opened.filter((id): id is string => typeof id === 'string') : [];
}

/** The payment page of a session this browser opened, if it is remembered and is a web address. */
export function paymentUrl(sessionId: string): string | undefined {
  const url = storage('local')?.getItem(`${PAYMENT_URL_PREFIX}${sessionId}`) ?? undefined;
  return url && /^https?:\/\//.test(url) ? url : undefined;
}

/** The success page: paid (or with the bank), so this tab forgets the form and the open tabs learn it. */
export function announcePaid(message: Omit<PaidMessage, 'type'>): void {
  forgetForm();
  storage('local')?.removeItem(`${PAYMENT_URL_PREFIX}${message.sessionId}`);
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ type: 'paid', ...message } satisfies PaidMessage);
  channel.close();
}

/** Calls `onPaid` when another tab announces a paid session. Returns the unsubscribe function. */
export function listenForPaid(onPaid: (message: PaidMessage) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const data = event.data;
    if (isRecord(data) && data.type === 'paid' && typeof data.sessionId === 'string') {
      onPaid({
        type: 'paid',
        sessionId: data.sessionId,
        reference: text(data.reference),
        held: data.held === true,
        pending: data.pending === true,
      });
    }
  };
  return () => channel.close();
}
