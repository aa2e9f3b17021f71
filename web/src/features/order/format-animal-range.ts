import { formatCount } from '../../../../shared/pricing';
import { animalRange, DAPHNIA } from '../../../../shared/product';

/** "900-2,700 daphnia": the approximate animal count for a number of bottles (100–300 each). */
export function formatAnimalRange(bottles: number): string {
  const range = animalRange(bottles);
  return `${formatCount(range.min)}-${formatCount(range.max)} ${DAPHNIA.unit}`;
}
