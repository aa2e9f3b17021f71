import { ORDER_PAGE_PREFIX } from '../../../shared/site-routes';

/**
 * Every route path of the shop, in one place: `/`, `/success`, `/order/<token>`, the policy pages
 * ({@link policyPaths}), and anything else is the 404 page. `/admin` is not one of them: it has an
 * entry of its own (web/src/admin-main.tsx, ADR 0033).
 */
export const paths = {
  home: '/',
  success: '/success',
  /** The customer's order page, linked from the order's emails. */
  order: `${ORDER_PAGE_PREFIX}:token`,
  notFound: '*',
} as const;

/** The policy pages' routes; CloudFront and the local server serve each with 200. */
export const policyPaths = {
  privacy: '/privacy',
  terms: '/terms',
  contact: '/contact',
} as const;
