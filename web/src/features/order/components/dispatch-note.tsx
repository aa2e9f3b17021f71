import { TruckIcon } from '../../../components/ui/icons';
import { useAppConfig } from '../../../lib/app-context';
import { useOrderFlow } from '../order-flow-loader';

/**
 * The day an order placed now leaves, with the server's cut-off. Worked out on every render, so
 * a page left open over the weekend does not keep promising last week's Monday. The page's HTML
 * is written at build time, when "now" is another day, so the date comes after hydration, with
 * the order flow that holds the calendar (bank holidays included). `roomDay`: the first day with
 * room, from shop-status, when the merchant limits the bottles per day.
 */
export function DispatchNote({ roomDay }: { roomDay?: string | null | undefined }) {
  const { dispatchCutoffHours } = useAppConfig();
  const flow = useOrderFlow();
  return (
    <p className="dispatch-note">
      <TruckIcon />
      {/* A plan, not a fact: when to order by, when it leaves, and when it should arrive. */}
      <span>
        {flow
          ? flow.dispatchPlan(new Date(), dispatchCutoffHours, roomDay)
          : 'We dispatch on Mondays; most orders arrive the next day.'}
      </span>
    </p>
  );
}
