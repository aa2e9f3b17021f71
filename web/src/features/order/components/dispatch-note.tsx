import { formatDispatchDate, nextDispatchDate } from '../../../../../shared/dispatch';
import { TruckIcon } from '../../../components/ui/icons';
import { useAppConfig } from '../../../lib/app-context';

/**
 * The day an order placed now leaves, with the server's cut-off. Worked out on every render, so
 * a page left open over the weekend does not keep promising last week's Monday.
 */
export function DispatchNote() {
  const { dispatchCutoffHours } = useAppConfig();
  const day = nextDispatchDate(new Date(), { cutoffHours: dispatchCutoffHours });
  return (
    <p className="dispatch-note">
      <TruckIcon />
      <span>Dispatched {formatDispatchDate(day)}</span>
    </p>
  );
}
