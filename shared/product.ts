/** The product's display name: the `{product}` placeholder of the spec, kept in one place. */
export const PRODUCT_NAME = 'Daphnia Magna';

/** The only product key the storefront knows (spec §3, "Selected products"). */
export type ProductKey = 'daphnia';

/** Spec §3 product definition. Prices are integer pence (spec says £3.25). */
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

/** Flat UK delivery added to every order (spec §9). */
export const SHIPPING_PENCE = 495;

/** The promo shown on the product card (spec §2, §9): "£9.75 for 3 bottles" against £12.00. */
export const PROMO = { wasPence: 1200, bottles: 3 } as const;

/** The bottle quantities a customer may order: 3, 6, 9. */
export const ALLOWED_QUANTITIES: readonly number[] = Array.from(
  { length: (DAPHNIA.max - DAPHNIA.min) / DAPHNIA.step + 1 },
  (_, i) => DAPHNIA.min + i * DAPHNIA.step,
);

export function isAllowedQuantity(value: unknown): value is number {
  return typeof value === 'number' && ALLOWED_QUANTITIES.includes(value);
}

/** Approximate animal count for a number of bottles (spec §9: bottles×100 to bottles×300). */
export function animalRange(bottles: number): { min: number; max: number } {
  return { min: bottles * DAPHNIA.countMin, max: bottles * DAPHNIA.countMax };
}
