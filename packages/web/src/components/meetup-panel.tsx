import {
  suggestMeetupSchema,
  type Meetup,
  type SuggestMeetupInput,
} from '@campus-books/common/meetup.schemas';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { meetupCalendarHref, useMeetupActions, useMeetups } from '../api/meetups-api';
import { Button } from './ui/button';
import { SelectField, TextField } from './ui/form-field';
import { RequestError } from './ui/request-error';
import { bodyResolver } from '../lib/body-resolver';
import { useCampus } from '../lib/campus';
import { fieldsOf } from '../lib/form-fields';

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function MeetupLine({ meetup, conversationId }: { meetup: Meetup; conversationId: string }) {
  const { answer } = useMeetupActions(conversationId);
  return (
    <li className="rounded border border-slate-200 bg-white p-3" data-testid="meetup">
      <p className="font-semibold text-slate-900">
        {meetup.spot.name} · {when.format(new Date(meetup.startsAt))}
      </p>
      <p className="text-sm text-slate-800">
        {meetup.spot.place}
        {meetup.spot.note ? ` · ${meetup.spot.note}` : ''}
      </p>
      <p className="text-sm text-slate-800">
        {meetup.status === 'proposed'
          ? meetup.suggestedBy === 'me'
            ? 'Suggested by you: waiting for the other student'
            : 'Suggested by the other student'
          : meetup.status === 'accepted'
            ? 'Accepted'
            : 'Declined'}
      </p>
      {meetup.status === 'proposed' && meetup.suggestedBy === 'other' ? (
        <div className="mt-2 flex flex-wrap gap-2">
          <Button
            isLoading={answer.isPending}
            onClick={() => answer.mutate({ id: meetup.id, answer: 'accept' })}
          >
            Accept meetup
          </Button>
          <Button
            variant="secondary"
            disabled={answer.isPending}
            onClick={() => answer.mutate({ id: meetup.id, answer: 'decline' })}
          >
            Decline
          </Button>
        </div>
      ) : null}
      {meetup.status === 'accepted' ? (
        <a
          href={meetupCalendarHref(meetup.id)}
          download="meetup.ics"
          className="link inline-flex min-h-11 items-center"
        >
          Add to calendar (.ics)
        </a>
      ) : null}
      <RequestError error={answer.error} />
    </li>
  );
}

interface MeetupFormValues {
  spotId: string;
  /** The datetime-local field's text: the student's own clock, made an instant when sent. */
  startsAt: string;
}

/** The suggestion the API takes: the local time as an instant ('' when none or not a date). */
function suggestionBody(conversationId: string, { spotId, startsAt }: MeetupFormValues) {
  const time = startsAt ? new Date(startsAt) : null;
  return {
    conversationId,
    spotId,
    startsAt: time && !Number.isNaN(time.getTime()) ? time.toISOString() : '',
  };
}

/** Suggest a spot and a time, checked by the API's own schema; closes once sent. */
function SuggestMeetupForm({ conversationId, onSent }: { conversationId: string; onSent(): void }) {
  const { suggest } = useMeetupActions(conversationId);
  const { meetupSpots } = useCampus();
  const resolver = useMemo(
    () =>
      bodyResolver(
        suggestMeetupSchema,
        (values: MeetupFormValues) => suggestionBody(conversationId, values),
        ['spotId', 'startsAt'],
      ),
    [conversationId],
  );
  const { register, handleSubmit, control, formState } = useForm<
    MeetupFormValues,
    unknown,
    SuggestMeetupInput
  >({ resolver, defaultValues: { spotId: meetupSpots[0]?.id ?? '', startsAt: '' } });
  const field = fieldsOf(register, formState.errors);
  const spotId = useWatch({ control, name: 'spotId' });
  const spot = meetupSpots.find((s) => s.id === spotId);
  return (
    <form
      noValidate
      className="space-y-2"
      onSubmit={handleSubmit(({ spotId, startsAt }) =>
        suggest.mutate({ spotId, startsAt }, { onSuccess: onSent }),
      )}
    >
      <SelectField
        label="Safe meetup spot"
        hint={
          spot ? `${spot.place} · ${spot.hours}${spot.note ? ` · ${spot.note}` : ''}` : undefined
        }
        {...field('spotId')}
      >
        {meetupSpots.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </SelectField>
      <TextField label="Date and time" type="datetime-local" required {...field('startsAt')} />
      <Button type="submit" isLoading={suggest.isPending} loadingText="Sending...">
        Send suggestion
      </Button>
      <RequestError error={suggest.error} />
    </form>
  );
}

/** A conversation's meetups at the campus's safe spots: suggest one, accept the other's. */
export function MeetupPanel({ conversationId }: { conversationId: string }) {
  const meetups = useMeetups(conversationId);
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="meetups-title" className="space-y-2 border-t border-slate-200 pt-3">
      <h2 id="meetups-title" className="text-lg font-semibold text-slate-900">
        Meetup
      </h2>
      {meetups.data && meetups.data.meetups.length > 0 ? (
        <ul className="space-y-2">
          {meetups.data.meetups.slice(0, 3).map((meetup) => (
            <MeetupLine key={meetup.id} meetup={meetup} conversationId={conversationId} />
          ))}
        </ul>
      ) : null}
      <RequestError error={meetups.error} />
      {open ? (
        <SuggestMeetupForm conversationId={conversationId} onSent={() => setOpen(false)} />
      ) : (
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Suggest a meetup
        </Button>
      )}
    </section>
  );
}
