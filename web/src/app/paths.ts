/** Every route path of the app, in one place: `/`, `/success`, `/admin`, and anything else is the 404 page. */
export const paths = {
  home: '/',
  success: '/success',
  /** The merchant's page (its views are `?view=`), loaded only there. */
  admin: '/admin',
  notFound: '*',
} as const;
