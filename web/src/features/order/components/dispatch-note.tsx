import { formatDispatchDate, nextDispatchDate } from '../../../../../shared/dispatch';
import { TruckIcon } from '../../../components/ui/icons';
import { useAppConfig } from '../../../lib/app-context';
import { useHydrated } from '../../../lib/use-hydrated';
import { formatArrivalEstimate, formatCutoff } from '../dispatch-wording';

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
      {/* A plan, not a fact: when to order by, when it leaves, and when it should arrive. */}
      <span>
        {live
          ? `Order by ${formatCutoff(day, dispatchCutoffHours)} for dispatch on ${formatDispatchDate(day)}. Most orders arrive the next day, ${formatArrivalEstimate(day)}.`
          : 'We dispatch on Mondays; most orders arrive the next day.'}
      </span>
    </p>
  );
}
