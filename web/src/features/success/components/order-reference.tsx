import { formatReference } from '../../../../../shared/order-reference';
import { Reference } from '../../../components/ui/reference';

/** "Order Reference": the last 12 characters of the session id. */
export function OrderReference({ sessionId }: { sessionId: string }) {
  return <Reference value={formatReference(sessionId)} />;
}
