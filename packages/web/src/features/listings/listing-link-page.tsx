import type { ListingLinkAction } from '@campus-books/common/listing.schemas';
import { displayName } from '@campus-books/common/display';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { apiCall } from '../../lib/api-client';
import { RequestError } from '../../components/ui/request-error';
import { queryKeys } from '../../lib/query-keys';

const LABELS: Record<ListingLinkAction, { title: string; button: string }> = {
  extend: { title: 'Is your book still available?', button: 'Yes, still available' },
  sold: { title: 'Mark your book as sold?', button: 'Mark as sold' },
  remove: { title: 'Remove your listing?', button: 'Remove listing' },
};
/** "Still available" on a listing that expired meanwhile (or the expiry mail's link) relists it. */
const RELIST = { title: 'Relist your book?', button: 'Relist it' };

/**
 * /listing-link/{token}: the one-click link of an expiry reminder or of the expiry mail. Opening it changes nothing (mail
 * scanners open links); the button does.
 */
export default function ListingLinkPage() {
  const { token = '' } = useParams();
  const link = useQuery({
    queryKey: queryKeys.listingLink(token),
    queryFn: ({ signal }) => apiCall('GET /api/listing-link/:token', { params: { token }, signal }),
    retry: false,
  });
  const use = useMutation({
    mutationFn: () => apiCall('POST /api/listing-link/:token', { params: { token } }),
  });

  if (link.isPending) return <Loading />;
  if (link.error) {
    return (
      <div role="alert" className="mx-auto max-w-md py-12 text-center">
        <PageTitle title="Link not valid" />
        <h1 className="text-2xl font-bold text-slate-900">This link no longer works</h1>
        <p className="mt-2 text-slate-700">{link.error.message}</p>
        <ButtonLink to={paths.profile} className="mt-6 min-h-11">
          Open my listings
        </ButtonLink>
      </div>
    );
  }
  const labels =
    link.data.action === 'extend' && link.data.listing.status === 'expired'
      ? RELIST
      : LABELS[link.data.action];
  return (
    <div className="mx-auto max-w-md py-12 text-center">
      <PageTitle title={labels.title} />
      <h1 className="text-2xl font-bold text-slate-900">{labels.title}</h1>
      <p className="mt-2 text-slate-700">{displayName(link.data.listing.name)}</p>
      {use.isSuccess ? (
        <p role="status" className="mt-6 font-semibold text-green-800">
          {use.data.message}
        </p>
      ) : (
        <Button
          className="min-h-11 mt-6 w-full"
          isLoading={use.isPending}
          loadingText="Saving..."
          onClick={() => use.mutate()}
        >
          {labels.button}
        </Button>
      )}
      <RequestError error={use.error} className="mt-3" />
    </div>
  );
}
