import { TruckIcon } from '../../../components/ui/icons';

/**
 * The day an order placed now leaves, with the server's cut-off: `plan`, worked out by the order
 * flow on every render of the page, so a page left open over the weekend does not keep promising
 * last week's Monday. The page's HTML is written at build time, when "now" is another day, so
 * the plan comes after hydration, with the order flow that holds the calendar (bank holidays
 * included); until then the general rule stands.
 */
export function DispatchNote({ plan }: { plan: string | undefined }) {
  return (
    <p className="dispatch-note">
      <TruckIcon />
      {/* A plan, not a fact: when to order by, when it leaves, and when it should arrive. */}
      <span>{plan ?? 'We dispatch on Mondays; most orders arrive the next day.'}</span>
    </p>
  );
}
