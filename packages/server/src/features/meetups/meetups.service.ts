import {
  MEETUP_MAX_DAYS_AHEAD,
  MEETUP_MESSAGES as M,
  type Meetup,
  type SuggestMeetupInput,
} from '@campus-books/common/meetup.schemas';
import type { UserRow } from '../../db/schema';
import type { Jobs } from '../../jobs/jobs';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import {
  assertWritable,
  getParticipantConversation,
  type ConversationDeps,
} from '../conversations/conversations.service';
import { spotOf } from './meetup-calendar';
import {
  answerMeetupRow,
  findMeetupOf,
  findMeetupsOfConversation,
  upsertProposedMeetup,
  type MeetupDbRow,
} from './meetups.repository';

/** What the meetup rules need: the conversations' deps, the jobs (mails), the reminder's lead. */
export interface MeetupDeps extends ConversationDeps {
  jobs: Pick<Jobs, 'enqueue'>;
  reminderMs: number;
}

/** The one job that mails a meetup's two students: the calendar entry, then the reminder. */
export const MEETUP_MAIL_JOB = 'meetup-mail';
export interface MeetupMailPayload {
  meetupId: string;
  kind: 'accepted' | 'reminder';
}

const DAY_MS = 24 * 60 * 60_000;

export function toMeetup(row: MeetupDbRow, viewerId: string): Meetup {
  const spot = spotOf(row.spot_id);
  return {
    id: row.id,
    conversationId: row.conversation_id,
    spot: { ...spot, note: spot.note ?? null },
    startsAt: new Date(row.starts_at).toISOString(),
    status: row.status,
    suggestedBy: row.proposer_id === viewerId ? 'me' : 'other',
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** A spot and a time in the user's conversation; it takes the place of an open suggestion. */
export async function suggestMeetup(
  deps: MeetupDeps,
  user: UserRow,
  input: SuggestMeetupInput,
): Promise<Meetup> {
  const conversation = await getParticipantConversation(deps, user, input.conversationId);
  await assertWritable(deps, conversation);
  // A meetup is set to the minute (a calendar entry with seconds reads oddly).
  const startsAt = new Date(input.startsAt);
  startsAt.setUTCSeconds(0, 0);
  const now = deps.now();
  if (startsAt.getTime() <= now.getTime()) throw badRequest(M.timeInPast);
  if (startsAt.getTime() > now.getTime() + MEETUP_MAX_DAYS_AHEAD * DAY_MS) {
    throw badRequest(M.timeTooFar);
  }
  const row = await upsertProposedMeetup(deps.db, {
    conversationId: conversation.id,
    proposerId: user.id,
    spotId: input.spotId,
    startsAt,
    now,
  });
  return toMeetup(row, user.id);
}

export async function listMeetups(
  deps: MeetupDeps,
  user: UserRow,
  conversationId: string,
): Promise<Meetup[]> {
  const conversation = await getParticipantConversation(deps, user, conversationId);
  const rows = await findMeetupsOfConversation(deps.db, conversation.id);
  return rows.map((row) => toMeetup(row, user.id));
}

/** The meetup when the user is one of its conversation's students; 404 otherwise. */
export async function getMeetupOf(deps: MeetupDeps, user: UserRow, id: string) {
  const row = await findMeetupOf(deps.db, id, user.id);
  if (!row) throw notFound(M.meetupNotFound);
  return row;
}

/**
 * The other side accepts or declines an open suggestion (once: a copy sent at once gets 409).
 * Accepting mails both the calendar entry and schedules the reminder, in the same transaction.
 */
export async function answerMeetup(
  deps: MeetupDeps,
  user: UserRow,
  id: string,
  answer: 'accepted' | 'declined',
): Promise<Meetup> {
  const meetup = await getMeetupOf(deps, user, id);
  if (meetup.proposer_id === user.id) throw forbidden(M.ownMeetup);
  const conversation = await getParticipantConversation(deps, user, meetup.conversation_id);
  await assertWritable(deps, conversation);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const row = await answerMeetupRow(tx, meetup.id, answer, now);
    if (!row) throw conflict(M.notProposed);
    if (answer === 'accepted') {
      const payload = (kind: MeetupMailPayload['kind']): MeetupMailPayload => ({
        meetupId: row.id,
        kind,
      });
      await deps.jobs.enqueue(MEETUP_MAIL_JOB, payload('accepted'), {
        db: tx,
        key: `meetup-accepted:${row.id}`,
      });
      const remindAt = new Date(new Date(row.starts_at).getTime() - deps.reminderMs);
      if (remindAt.getTime() > now.getTime()) {
        await deps.jobs.enqueue(MEETUP_MAIL_JOB, payload('reminder'), {
          db: tx,
          runAt: remindAt,
          key: `meetup-reminder:${row.id}`,
        });
      }
    }
    return toMeetup(row, user.id);
  });
}
