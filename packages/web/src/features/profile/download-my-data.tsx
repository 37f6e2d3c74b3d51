import { useMutation } from '@tanstack/react-query';
import { formatDays } from '@campus-books/common/durations';
import { EXPORT_LINK_DAYS } from '@campus-books/common/privacy';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { RequestError } from '../../components/ui/request-error';
import { paths } from '../../config/paths';
import { apiCall } from '../../lib/api-client';

/** "Download my data": asks for a copy, which the server prepares and mails as a signed link. */
export function DownloadMyData() {
  const request = useMutation({
    mutationFn: () => apiCall('POST /api/data-export'),
  });
  return (
    <section aria-labelledby="my-data-title" className="rounded-lg border border-slate-200 p-4">
      <h2 id="my-data-title" className="text-lg font-bold text-slate-900">
        Your data
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        A copy of everything{' '}
        <Link to={paths.privacy} className="link">
          we keep about you
        </Link>
        : one JSON file and your photos. We mail you a download link that works for{' '}
        {formatDays(EXPORT_LINK_DAYS)}.
      </p>
      <Button
        variant="secondary"
        className="mt-3 w-full"
        disabled={request.isPending}
        onClick={() => request.mutate()}
      >
        {request.isPending ? 'Asking…' : 'Download my data'}
      </Button>
      <p role="status" className="mt-2 text-sm text-slate-800">
        {request.data?.message ?? ''}
      </p>
      <RequestError error={request.error} />
    </section>
  );
}
