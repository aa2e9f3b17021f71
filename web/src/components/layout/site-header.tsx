import { SELLER } from '../../lib/seller';

/**
 * On every page: the shop's logo (the icon the build ships, already fetched as the favicon),
 * named by the shop's name. Not a link: on the order page it would be a tab stop before the
 * product; the other pages lead home themselves. Its size is in the markup, so nothing moves when
 * it arrives.
 */
export function SiteHeader() {
  return (
    <header className="site-header">
      <img src="/favicon.svg" alt={SELLER.shopName} width="48" height="48" />
    </header>
  );
}
