import type { ShopStatus } from '../../../../../shared/shop-status';

/** Why the shop is not taking card orders now (paused, or order requests), with the merchant's message. */
export function ShopBanner({ status }: { status: ShopStatus | undefined }) {
  if (!status || status.mode === 'open') return null;
  return (
    <div className={`card shop-banner shop-banner--${status.mode}`} role="status">
      <h2 className="shop-banner__title">
        {status.mode === 'paused' ? 'We are not taking orders at the moment' : 'We are taking order requests'}
      </h2>
      {status.message ? <p>{status.message}</p> : null}
    </div>
  );
}
