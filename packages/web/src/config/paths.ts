/** The one route table of the web app: every link is built from here. */
export const paths = {
  home: '/',
  signIn: '/sign-in',
  signUp: '/sign-up',
  about: '/about',
  search: '/search',
  listing: (id: string) => `/listing/${id}`,
  contactSeller: (id: string) => `/contact-seller/${id}`,
  groupmeInstructions: '/groupme-instructions',
  forgotPassword: '/forgot-password',
  resetPassword: (token: string) => `/reset-password/${token}`,
  verifyEmail: (token: string) => `/verify-email/${token}`,
  howToSell: '/under-construction',
  componentPreview: '/component-preview',
  createListing: '/create-listing',
  profile: '/profile',
  profileAlerts: '/profile/alerts',
  saved: '/saved',
  alertsUnsubscribe: '/alerts/unsubscribe',
  updateListing: (id: string) => `/update-listing/${id}`,
  notFound: '/404',
  /** A course page: `ECON-101`, or a bare number for listings without a subject. */
  course: (code: string) => `/course/${encodeURIComponent(code)}`,
  moderation: '/moderation',
} as const;

/** /sign-in with a way back to where the visitor was going. */
export function signInPath(redirectTo?: string): string {
  return redirectTo ? `${paths.signIn}?redirectTo=${encodeURIComponent(redirectTo)}` : paths.signIn;
}
