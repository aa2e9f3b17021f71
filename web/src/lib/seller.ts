import type { Seller } from '../../../shared/stage-config';
import { SITE } from '../config';

export type { Seller } from '../../../shared/stage-config';

/** The seller of this build: the stage's, as the site was built with it (web/src/config.ts). */
export const SELLER: Seller = SITE.seller;
