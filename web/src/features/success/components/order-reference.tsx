import { orderReference } from '../../../../../shared/order-reference';

/** "Order Reference": the last 12 characters of the session id. */
export function OrderReference({ sessionId }: { sessionId: string }) {
  return (
    <div className="reference">
      <p className="reference__label">Order Reference</p>
      <p className="reference__value">{orderReference(sessionId)}</p>
    </div>
  );
}
