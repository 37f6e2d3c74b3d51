/**
 * The web app's pages: for each, its route `pattern` (React Router's form, which Fastify shares:
 * '/listing/:listingId') and an `href` that builds a link to it, encoding its parameters. The web app's
 * router, links and landing prefetch, and the server's mails and page heads all use this one table.
 * (Loaded on the home page's first load: keep it free of imports.)
 */

const segment = (value: string) => encodeURIComponent(value);

/** A page without parameters. */
function page<P extends string>(pattern: P) {
  return { pattern, href: (): P => pattern };
}

export const webPaths = {
  home: page('/'),
  signIn: {
    pattern: '/sign-in',
    /** With a way back to where the visitor was going. */
    href: (redirectTo?: string) =>
      redirectTo ? `/sign-in?redirectTo=${encodeURIComponent(redirectTo)}` : '/sign-in',
  },
  signUp: page('/sign-up'),
  about: page('/about'),
  /** What the product keeps about a student, why and how long (features/privacy). */
  privacy: page('/privacy'),
  search: page('/search'),
  listing: {
    pattern: '/listing/:listingId',
    href: (listingId: string) => `/listing/${segment(listingId)}`,
  },
  /** The one-click links of expiry reminders (mark sold, relist). */
  listingLink: {
    pattern: '/listing-link/:token',
    href: (token: string) => `/listing-link/${segment(token)}`,
  },
  contactSeller: {
    pattern: '/contact-seller/:sellerId',
    href: (sellerId: string) => `/contact-seller/${segment(sellerId)}`,
  },
  groupmeInstructions: page('/groupme-instructions'),
  forgotPassword: page('/forgot-password'),
  resetPassword: {
    pattern: '/reset-password/:token',
    href: (token: string) => `/reset-password/${segment(token)}`,
  },
  verifyEmail: {
    pattern: '/verify-email/:token',
    href: (token: string) => `/verify-email/${segment(token)}`,
  },
  howToSell: page('/under-construction'),
  componentPreview: page('/component-preview'),
  createListing: page('/create-listing'),
  /** The address a student guesses for selling: the router sends it on to createListing. */
  sell: page('/sell'),
  /** "Sell my shelf": several books in a row, kept as drafts until "Publish all" (issue 31). */
  sellMyShelf: page('/sell-my-shelf'),
  profile: page('/profile'),
  profileAlerts: page('/profile/alerts'),
  /** What reaches a student: per kind mail and push, quiet hours (issue 44). */
  notifications: page('/notifications'),
  saved: page('/saved'),
  alertsUnsubscribe: {
    pattern: '/alerts/unsubscribe',
    /** With the signed token of an alert mail (all the recipient's alerts, or one). */
    href: (token?: string) =>
      token ? `/alerts/unsubscribe?token=${encodeURIComponent(token)}` : '/alerts/unsubscribe',
  },
  updateListing: {
    pattern: '/update-listing/:listingId',
    href: (listingId: string) => `/update-listing/${segment(listingId)}`,
  },
  /** A course page: `ECON-101`, or a bare number for listings without a subject. */
  course: {
    pattern: '/course/:code',
    href: (code: string) => `/course/${segment(code)}`,
  },
  /** The student's conversations (both roles), one listing's with `?listingId=` (issue 28). */
  messages: {
    pattern: '/messages',
    href: (listingId?: string) =>
      listingId ? `/messages?listingId=${encodeURIComponent(listingId)}` : '/messages',
  },
  /** A buyer's first message about a listing (or back to the conversation already open). */
  messageSeller: {
    pattern: '/messages/new/:listingId',
    href: (listingId: string) => `/messages/new/${segment(listingId)}`,
  },
  conversation: {
    pattern: '/messages/:conversationId',
    href: (conversationId: string) => `/messages/${segment(conversationId)}`,
  },
  /** A student's courses this term and their books (issue 31). */
  myCourses: page('/my-courses'),
  moderation: page('/moderation'),
  /** A student's public profile: ratings, exchanges, listings on sale (issue 29). */
  publicProfile: {
    pattern: '/u/:userId',
    href: (userId: string) => `/u/${segment(userId)}`,
  },
  /** The student's recorded exchanges, to rate and rated. */
  ratings: page('/ratings'),
  /** The campus's aggregate counts per week, for moderators. */
  statistics: page('/statistics'),
  /** Single sign-on: a first sign-in's last step, and why a sign-on was refused (issue 30). */
  ssoFinish: page('/sso/finish'),
  ssoProblem: {
    pattern: '/sso/problem',
    href: (reason: string) => `/sso/problem?reason=${encodeURIComponent(reason)}`,
  },
  notFound: page('/404'),
} as const;

export type WebPage = keyof typeof webPaths;
