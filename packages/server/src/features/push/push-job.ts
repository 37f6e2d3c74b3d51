/**
 * The job written for each device to notify: by the database's triggers, in the transaction of what
 * it tells (deal/deal-triggers.ts for a conversation's events, migration 0023 for an alert's match).
 */
export const PUSH_JOB = 'push.send';
/** Tries of one push before it is given up. */
export const PUSH_MAX_ATTEMPTS = 5;
