import { REPORT_REASON_LABELS, REPORT_REASONS } from '@campus-books/common/constants';
import { reportSchema } from '@campus-books/common/moderation.schemas';
import { useReportListing } from '../api/report-listing';
import { ReportDialog } from './report-dialog';

/** "Report" on a listing page: a reason from the fixed list and an optional note, in a dialog. */
export function ReportListing({ listingId }: { listingId: string }) {
  const report = useReportListing();
  return (
    <ReportDialog
      opener={{ label: 'Report', variant: 'secondary', className: 'min-h-11 w-full sm:w-auto' }}
      title="Report this listing"
      reasons={REPORT_REASONS}
      labels={REPORT_REASON_LABELS}
      schema={reportSchema}
      isPending={report.isPending}
      error={report.error}
      send={(input, onSent) =>
        report.mutate({ listingId, ...input }, { onSuccess: (answer) => onSent(answer.message) })
      }
    />
  );
}
