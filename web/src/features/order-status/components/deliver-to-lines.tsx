import { SummaryLine } from '../../../components/ui/summary-line';

/** Where an order or a standing order goes: the address as the customer wrote its lines, postcode, phone. */
export function DeliverToLines({
  deliverTo,
}: {
  deliverTo: { address: string; postcode: string; phone: string };
}) {
  return (
    <dl className="summary__lines seller-details">
      <SummaryLine label="Address">
        {deliverTo.address
          .split('\n')
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one address, never reordered.
          .flatMap((line, index) => (index === 0 ? [line] : [<br key={index} />, line]))}
      </SummaryLine>
      <SummaryLine label="Postcode">{deliverTo.postcode}</SummaryLine>
      <SummaryLine label="Phone">{deliverTo.phone || 'None given'}</SummaryLine>
    </dl>
  );
}
