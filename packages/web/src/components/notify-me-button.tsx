import { useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { ButtonLink } from './ui/button-link';
import { Button } from './ui/button';
import { paths, signInPath } from '../config/paths';
import { useSession } from '../lib/session';
import type { AlertBody } from '@campus-books/common/alert.schemas';
import { useCreateAlert } from '../api/alerts-api';

/**
 * "Notify me": keeps the filters shown as an alert, so the student gets a mail when a matching
 * listing appears. Signed out, it leads to sign-in and back.
 */
export function NotifyMeButton({ filters, label }: { filters: AlertBody; label?: string }) {
  const { user } = useSession();
  const location = useLocation();
  const create = useCreateAlert();
  // A double tap fires two clicks before the disabled button is drawn: the second must not send
  // again (the server answers a repeated create with the same alert, but one request is enough).
  const sending = useRef(false);
  const save = () => {
    if (sending.current) return;
    sending.current = true;
    create.mutate(filters, {
      onError: () => {
        sending.current = false;
      },
    });
  };
  const text = label ?? 'Notify me when it’s listed';
  if (!user) {
    return (
      <ButtonLink variant="secondary" to={signInPath(`${location.pathname}${location.search}`)}>
        {text}
      </ButtonLink>
    );
  }
  return (
    <div className="flex flex-col gap-1">
      <Button
        variant="secondary"
        onClick={save}
        isLoading={create.isPending}
        loadingText="Saving…"
        disabled={create.isSuccess}
      >
        {create.isSuccess ? 'Alert saved' : text}
      </Button>
      <p role="status" className="text-sm text-slate-700">
        {create.isSuccess ? (
          <>
            We’ll e-mail you when it’s listed.{' '}
            <Link to={paths.profileAlerts} className="underline">
              Manage your alerts
            </Link>
          </>
        ) : create.error ? (
          <span className="text-red-800">{create.error.message}</span>
        ) : null}
      </p>
    </div>
  );
}
