import type { Meetup } from '@campus-books/common/meetup.schemas';
import { useState } from 'react';
import { meetupCalendarHref, useMeetupActions, useMeetups } from '../api/meetups-api';
import { Button } from './ui/button';
import { SelectField, TextField } from './ui/form-field';
import { RequestError } from './ui/request-error';
import { useCampus } from '../lib/campus';

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

/** A conversation's meetups at the campus's safe spots: suggest one, accept the other's. */
export function MeetupPanel({ conversationId }: { conversationId: string }) {
  const meetups = useMeetups(conversationId);
  const { suggest } = useMeetupActions(conversationId);
  const [open, setOpen] = useState(false);
  const { meetupSpots } = useCampus();
  const [spotId, setSpotId] = useState(meetupSpots[0]?.id ?? '');
  const [time, setTime] = useState('');
  const spot = meetupSpots.find((s) => s.id === spotId);
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
        <form
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (!time) return;
            suggest.mutate(
              { spotId, startsAt: new Date(time).toISOString() },
              { onSuccess: () => setOpen(false) },
            );
          }}
        >
          <SelectField
            label="Safe meetup spot"
            value={spotId}
            onChange={(event) => setSpotId(event.currentTarget.value)}
            hint={
              spot
                ? `${spot.place} · ${spot.hours}${spot.note ? ` · ${spot.note}` : ''}`
                : undefined
            }
          >
            {meetupSpots.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Date and time"
            type="datetime-local"
            required
            value={time}
            onChange={(event) => setTime(event.currentTarget.value)}
          />
          <Button type="submit" isLoading={suggest.isPending} loadingText="Sending...">
            Send suggestion
          </Button>
          <RequestError error={suggest.error} />
        </form>
      ) : (
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Suggest a meetup
        </Button>
      )}
    </section>
  );
}
