// zod/mini like config.ts: every page ships this module (the footer), so it must stay small.
import * as z from 'zod/mini';

/**
 * Who sells: what the footer, the policy pages and the payment tab show. The same facts as the
 * lambdas' SELLER_* settings, which the confirmation email carries; keep the two in step.
 */
export interface Seller {
  /** The shop's name as customers know it: page titles, the payment tab, the footer. */
  shopName: string;
  /** The trading (or company) name that sells. */
  name: string;
  /** A geographic address, not a PO box. */
  address: string;
  email: string;
  phone: string | undefined;
  companyNumber: string | undefined;
  vatNumber: string | undefined;
}

/** The local shop's seller, the same as `npm start`'s SELLER_* defaults; a deployment sets its own. */
export const LOCAL_SELLER: Seller = {
  shopName: 'Live Aquatics',
  name: 'Live Aquatics (local test shop)',
  address: '1 Test Street, Testville, TE1 1ST',
  email: 'hello@live-aquatics.test',
  phone: undefined,
  companyNumber: undefined,
  vatNumber: undefined,
};

const text = z.pipe(
  z.transform((value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value)),
  z.optional(z.string().check(z.trim(), z.maxLength(200))),
);

const sellerEnvSchema = z.object({
  VITE_SHOP_NAME: text,
  VITE_SELLER_NAME: text,
  VITE_SELLER_ADDRESS: text,
  VITE_SELLER_EMAIL: z.pipe(
    z.transform((value: unknown) => (value === '' ? undefined : value)),
    z.optional(z.email()),
  ),
  VITE_SELLER_PHONE: text,
  VITE_SELLER_COMPANY_NUMBER: text,
  VITE_SELLER_VAT_NUMBER: text,
});

/** Reads the seller from the build-time environment; unset values fall back to the local shop's. */
export function parseSeller(env: Record<string, unknown>): Seller {
  const result = sellerEnvSchema.safeParse(env);
  if (!result.success) {
    const setting = result.error.issues.map((issue) => String(issue.path[0])).join(', ');
    throw new Error(`Invalid web configuration: check ${setting}`);
  }
  const data = result.data;
  return {
    shopName: data.VITE_SHOP_NAME ?? LOCAL_SELLER.shopName,
    name: data.VITE_SELLER_NAME ?? LOCAL_SELLER.name,
    address: data.VITE_SELLER_ADDRESS ?? LOCAL_SELLER.address,
    email: data.VITE_SELLER_EMAIL ?? LOCAL_SELLER.email,
    phone: data.VITE_SELLER_PHONE,
    companyNumber: data.VITE_SELLER_COMPANY_NUMBER,
    vatNumber: data.VITE_SELLER_VAT_NUMBER,
  };
}

/** The seller of this build, read once. */
export const SELLER: Seller = parseSeller(import.meta.env);
