import { lazy } from 'react';
import { useReportListing } from '../api/report-listing';
import { ReportDialog } from './report-dialog';

const ReportListingForm = lazy(() => import('./report-listing-form'));

/** "Report" on a listing page: a reason from the fixed list and an optional note, in a dialog. */
export function ReportListing({ listingId }: { listingId: string }) {
  const report = useReportListing();
  return (
    <ReportDialog
      opener={{ label: 'Report', variant: 'secondary', className: 'min-h-11 w-full sm:w-auto' }}
      title="Report this listing"
      isPending={report.isPending}
      form={(end) => <ReportListingForm listingId={listingId} report={report} {...end} />}
    />
  );
}
