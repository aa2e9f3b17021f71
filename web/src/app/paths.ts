/** Every route path of the app, in one place (spec §2). */
export const paths = {
  home: '/',
  success: '/success',
  notFound: '*',
} as const;
