import { parseSeller, type Seller } from './seller-check';

export type { Seller } from './seller-check';
export { LOCAL_SELLER, parseSeller } from './seller-check';

/**
 * The seller of this build, read once. A browser build carries the details as vite.config.ts
 * checked them (`__SHOP_SELLER__`), not the checks, which every page's first load would carry for
 * the footer; where nothing was built in (tests, prerendering in Node) they are checked here.
 */
export const SELLER: Seller =
  typeof __SHOP_SELLER__ === 'undefined' ? parseSeller(import.meta.env) : __SHOP_SELLER__;
