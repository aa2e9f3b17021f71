/**
 * Every route path of the shop, in one place: `/`, `/success`, and anything else is the 404 page.
 * `/admin` is not one of them: it has an entry of its own (web/src/admin-main.tsx, ADR 0033).
 */
export const paths = {
  home: '/',
  success: '/success',
  notFound: '*',
} as const;
