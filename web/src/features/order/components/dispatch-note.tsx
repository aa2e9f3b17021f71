import { formatDispatchDate, nextDispatchDate } from '../../../../../shared/dispatch';
import { TruckIcon } from '../../../components/ui/icons';
import { useAppConfig } from '../../../lib/app-context';
import { useHydrated } from '../../../lib/use-hydrated';

/**
 * The day an order placed now leaves, with the server's cut-off. Worked out on every render, so
 * a page left open over the weekend does not keep promising last week's Monday.
 */
export function DispatchNote() {
  const { dispatchCutoffHours } = useAppConfig();
  // The page's HTML is written at build time, when "now" is another day: the date comes after.
  const live = useHydrated();
  const day = nextDispatchDate(new Date(), { cutoffHours: dispatchCutoffHours });
  return (
    <p className="dispatch-note">
      <TruckIcon />
      <span>{live ? `Dispatched ${formatDispatchDate(day)}` : 'Dispatched on Mondays'}</span>
    </p>
  );
}
