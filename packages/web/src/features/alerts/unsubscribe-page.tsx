import { asSentence } from '@campus-books/common/display';
import { Link, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Button } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { useUnsubscribe } from '../../api/alerts-api';
import { RequestError } from '../../components/ui/request-error';
import { describeScope, isNotificationKind, scopeOf } from './unsubscribe-scope';

/**
 * /alerts/unsubscribe?token=…: the page a mail's unsubscribe line links to (alerts, saved listings,
 * unread messages, the end of term, meetups, ratings). Opening it changes nothing (mail scanners
 * open links); the button stops the mails.
 */
export default function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const scope = scopeOf(token);
  const unsubscribe = useUnsubscribe();
  return (
    <section className="mx-auto w-full max-w-xl py-2">
      <PageTitle title="Unsubscribe" />
      <h1 className="mb-4 text-2xl font-bold text-slate-900">Stop these mails</h1>
      {unsubscribe.isSuccess ? (
        <p role="status" className="text-slate-800">
          Unsubscribed: {asSentence(unsubscribe.data.message)}{' '}
          {isNotificationKind(scope) ? (
            <Link to={paths.notifications} className="underline">
              Choose what reaches you
            </Link>
          ) : (
            <Link
              to={scope.savedListings ? paths.saved : paths.profileAlerts}
              className="underline"
            >
              {scope.savedListings ? 'Your saved listings' : 'Manage your alerts'}
            </Link>
          )}
        </p>
      ) : (
        <>
          <p className="mb-4 text-slate-800">
            We will stop mailing you about {describeScope(scope)}.
          </p>
          <Button onClick={() => unsubscribe.mutate(token)} isLoading={unsubscribe.isPending}>
            Unsubscribe
          </Button>
          <RequestError error={unsubscribe.error} className="mt-3" />
        </>
      )}
    </section>
  );
}
