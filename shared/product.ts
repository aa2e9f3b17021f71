/** The product's display name, kept in one place: every text that names the product uses it. */
export const PRODUCT_NAME = 'Daphnia Magna';

/** The only product key the storefront knows: the selection is a set of these. */
export type ProductKey = 'daphnia';

/** The product: 3 to 9 bottles in steps of 3, 100–300 animals each, £3.25 a bottle (in pence). */
export const DAPHNIA = {
  key: 'daphnia',
  name: PRODUCT_NAME,
  min: 3,
  max: 9,
  step: 3,
  countMin: 100,
  countMax: 300,
  unit: 'daphnia',
  bottleSize: '250ml',
  unitPricePence: 325,
} as const satisfies {
  key: ProductKey;
  name: string;
  min: number;
  max: number;
  step: number;
  countMin: number;
  countMax: number;
  unit: string;
  bottleSize: string;
  unitPricePence: number;
};

/** Flat UK delivery, £4.95, added to every order whatever its size. */
export const SHIPPING_PENCE = 495;

/**
 * The pack the product card prices: "£9.75 for 3 bottles". Its struck-through reference price and
 * wording are the stage's settings (shared/seller-claims.ts), a display claim only.
 */
export const PROMO = { bottles: 3 } as const;

/** The bottle quantities a customer may order: 3, 6, 9. */
export const ALLOWED_QUANTITIES: readonly number[] = Array.from(
  { length: (DAPHNIA.max - DAPHNIA.min) / DAPHNIA.step + 1 },
  (_, i) => DAPHNIA.min + i * DAPHNIA.step,
);

export function isAllowedQuantity(value: unknown): value is number {
  return typeof value === 'number' && ALLOWED_QUANTITIES.includes(value);
}

/** Approximate animal count for a number of bottles: bottles×100 to bottles×300. */
export function animalRange(bottles: number): { min: number; max: number } {
  return { min: bottles * DAPHNIA.countMin, max: bottles * DAPHNIA.countMax };
}
