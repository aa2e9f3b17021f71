/** Every route path of the app, in one place: `/`, `/success`, and anything else is the 404 page. */
export const paths = {
  home: '/',
  success: '/success',
  notFound: '*',
} as const;
