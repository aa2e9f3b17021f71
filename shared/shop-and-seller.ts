/** The shop's name and the seller's trading name, as configured (shared/stage-config.ts). */
interface ShopNames {
  shopName: string;
  name: string;
}

/** True when the shop trades under the seller's own name (case and spaces aside). */
export function tradesUnderOwnName({ shopName, name }: ShopNames): boolean {
  return shopName.trim().toLowerCase() === name.trim().toLowerCase();
}

/**
 * "Live Aquatics is sold by Live Aquatics Ltd": who sells under the shop's name, as the page's
 * footer and every customer email say it. A shop that trades under the seller's own name is named
 * once, never "Live Aquatics is sold by Live Aquatics". No imports, so the page's first load can
 * take it.
 */
export function shopAndSeller(names: ShopNames): string {
  return tradesUnderOwnName(names) ? names.name : `${names.shopName} is sold by ${names.name}`;
}
