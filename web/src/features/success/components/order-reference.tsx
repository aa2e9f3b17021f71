import { formatReference } from '../../../../../shared/order-reference';
import { Reference } from '../../../components/ui/reference';

/** "Order Reference": the last 12 characters of a session id, or a reference as it is. */
export function OrderReference({ sessionId }: { sessionId: string }) {
  return <Reference value={formatReference(sessionId)} />;
}
