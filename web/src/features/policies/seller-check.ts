// Checked by hand, like config-check.ts: zod would add about 7 KiB gzip wherever this runs.

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

const MAX_LENGTH = 200;
// zod's email check, written out: one @, no leading, trailing or doubled dots, a dotted domain.
const EMAIL_SHAPE =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** An optional line of text: blank is unset, otherwise trimmed and at most 200 characters. */
function readText(env: Record<string, unknown>, name: string, invalid: string[]): string | undefined {
  const value = env[name];
  if (value === undefined || (typeof value === 'string' && value.trim() === '')) return undefined;
  if (typeof value === 'string' && value.trim().length <= MAX_LENGTH) return value.trim();
  invalid.push(name);
  return undefined;
}

/** Reads the seller from the build-time environment; unset values fall back to the local shop's. */
export function parseSeller(env: Record<string, unknown>): Seller {
  const invalid: string[] = [];
  const shopName = readText(env, 'VITE_SHOP_NAME', invalid);
  const name = readText(env, 'VITE_SELLER_NAME', invalid);
  const address = readText(env, 'VITE_SELLER_ADDRESS', invalid);
  const email = env.VITE_SELLER_EMAIL === '' ? undefined : env.VITE_SELLER_EMAIL;
  if (email !== undefined && (typeof email !== 'string' || !EMAIL_SHAPE.test(email))) {
    invalid.push('VITE_SELLER_EMAIL');
  }
  const phone = readText(env, 'VITE_SELLER_PHONE', invalid);
  const companyNumber = readText(env, 'VITE_SELLER_COMPANY_NUMBER', invalid);
  const vatNumber = readText(env, 'VITE_SELLER_VAT_NUMBER', invalid);
  if (invalid.length > 0) throw new Error(`Invalid web configuration: check ${invalid.join(', ')}`);
  return {
    shopName: shopName ?? LOCAL_SELLER.shopName,
    name: name ?? LOCAL_SELLER.name,
    address: address ?? LOCAL_SELLER.address,
    email: typeof email === 'string' ? email : LOCAL_SELLER.email,
    phone,
    companyNumber,
    vatNumber,
  };
}
