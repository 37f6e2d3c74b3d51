import type { Alert } from '@campus-books/common/alert.schemas';
import { describeAlert } from './describe-alert';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Button } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { AlertEditForm } from './alert-edit-form';
import { useAlerts, useDeleteAlert, useUpdateAlert } from '../../api/alerts-api';
import { RequestError } from '../../components/ui/request-error';

function AlertRow({ alert }: { alert: Alert }) {
  const update = useUpdateAlert();
  const remove = useDeleteAlert();
  const error = update.error ?? remove.error;
  const [isEditing, setIsEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const description = describeAlert(alert);
  const closeEditor = () => {
    setIsEditing(false);
    // Back to where the student was (after the form and its focus are gone).
    requestAnimationFrame(() => editButton.current?.focus());
  };
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <div className="min-w-0 flex-1">
          <p className="font-semibold wrap-anywhere text-slate-900">{description}</p>
          <p className="text-sm text-slate-700">
            {alert.paused ? 'Paused' : alert.digest ? 'One mail a day' : 'A mail at once'}
          </p>
          <RequestError error={error} />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            ref={editButton}
            variant="secondary"
            aria-expanded={isEditing}
            aria-label={`Edit alert: ${description}`}
            onClick={() => (isEditing ? closeEditor() : setIsEditing(true))}
          >
            Edit
          </Button>
          <Button
            variant="secondary"
            isLoading={update.isPending}
            onClick={() => update.mutate({ alert, changes: { paused: !alert.paused } })}
          >
            {alert.paused ? 'Resume' : 'Pause'}
          </Button>
          <Button
            variant="secondary"
            onClick={() => update.mutate({ alert, changes: { digest: !alert.digest } })}
          >
            {alert.digest ? 'Mail at once' : 'Daily digest'}
          </Button>
          <Button
            variant="secondary"
            isLoading={remove.isPending}
            onClick={() => remove.mutate(alert._id)}
          >
            Delete
          </Button>
        </div>
      </div>
      {isEditing ? <AlertEditForm alert={alert} onDone={closeEditor} /> : null}
    </li>
  );
}

/** /profile/alerts: the student's alerts, to edit, pause, switch to a daily digest, or delete. */
export default function AlertsPage() {
  const { data, error, isPending } = useAlerts();
  return (
    <section className="mx-auto w-full max-w-3xl py-2">
      <PageTitle title="Your alerts" />
      <h1 className="mb-4 text-2xl font-bold text-slate-900">Your alerts</h1>
      <p className="mb-4 text-slate-700">
        We e-mail you when a listing matches one of them (up to 20). Add one with “Notify me” on the{' '}
        <Link to={paths.search} className="underline">
          search page
        </Link>
        , a course page or a book.
      </p>
      {isPending ? (
        <p>Loading...</p>
      ) : error ? (
        <RequestError error={error} />
      ) : data.length === 0 ? (
        <p className="text-slate-800">You have no alerts yet.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {data.map((alert) => (
            <AlertRow key={alert._id} alert={alert} />
          ))}
        </ul>
      )}
    </section>
  );
}
