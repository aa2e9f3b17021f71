/** A reference the customer may quote to the shop: its label, and the value in a box of its own. */
export function Reference({ label = 'Order Reference', value }: { label?: string; value: string }) {
  return (
    <div className="reference">
      <p className="reference__label">{label}</p>
      <p className="reference__value">{value}</p>
    </div>
  );
}
