/** The policy pages' routes; CloudFront and the local server serve each with 200. */
export const policyPaths = {
  privacy: '/privacy',
  terms: '/terms',
  contact: '/contact',
} as const;
