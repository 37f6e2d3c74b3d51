/** What a suspended seller reads when signing in. */
export const ACCOUNT_SUSPENDED =
  'This account is suspended by the campus moderators. Write to them if you think this is a mistake.';
export const NOT_A_MODERATOR = 'Only the campus moderators can do this';
export const ALREADY_REPORTED = 'You already reported this listing';
export const OWN_LISTING_REPORT = 'You cannot report your own listing';
