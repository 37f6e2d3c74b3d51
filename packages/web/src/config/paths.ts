import { webPaths } from '@campus-books/common/paths';

export { webPaths };

/**
 * Links to the web app's pages, built from the one route table in common/paths (which the router, the
 * landing prefetch and the server's mails share): a string for a page without parameters, a builder
 * that encodes them otherwise.
 */
export const paths = {
  home: webPaths.home.pattern,
  signIn: webPaths.signIn.pattern,
  signUp: webPaths.signUp.pattern,
  about: webPaths.about.pattern,
  privacy: webPaths.privacy.pattern,
  search: webPaths.search.pattern,
  listing: webPaths.listing.href,
  listingLink: webPaths.listingLink.href,
  contactSeller: webPaths.contactSeller.href,
  groupmeInstructions: webPaths.groupmeInstructions.pattern,
  forgotPassword: webPaths.forgotPassword.pattern,
  resetPassword: webPaths.resetPassword.href,
  verifyEmail: webPaths.verifyEmail.href,
  howToSell: webPaths.howToSell.pattern,
  componentPreview: webPaths.componentPreview.pattern,
  createListing: webPaths.createListing.pattern,
  sellMyShelf: webPaths.sellMyShelf.pattern,
  profile: webPaths.profile.pattern,
  profileAlerts: webPaths.profileAlerts.pattern,
  notifications: webPaths.notifications.pattern,
  saved: webPaths.saved.pattern,
  publicProfile: webPaths.publicProfile.href,
  ratings: webPaths.ratings.pattern,
  alertsUnsubscribe: webPaths.alertsUnsubscribe.pattern,
  updateListing: webPaths.updateListing.href,
  notFound: webPaths.notFound.pattern,
  course: webPaths.course.href,
  myCourses: webPaths.myCourses.pattern,
  moderation: webPaths.moderation.pattern,
  messages: webPaths.messages.href,
  messageSeller: webPaths.messageSeller.href,
  conversation: webPaths.conversation.href,
  statistics: webPaths.statistics.pattern,
} as const;

/** /sign-in with a way back to where the visitor was going. */
export const signInPath = webPaths.signIn.href;
