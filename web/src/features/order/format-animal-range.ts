import { animalRange, DAPHNIA } from '../../../../shared/product';

const count = new Intl.NumberFormat('en-GB');

/** "900-2,700 daphnia": the approximate animal count for a number of bottles (100–300 each). */
export function formatAnimalRange(bottles: number): string {
  const range = animalRange(bottles);
  return `${count.format(range.min)}-${count.format(range.max)} ${DAPHNIA.unit}`;
}
