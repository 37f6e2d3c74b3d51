import { REPORT_REASON_LABELS, REPORT_REASONS } from '@campus-books/common/constants';
import { reportSchema } from '@campus-books/common/moderation.schemas';
import type { useReportListing } from '../api/report-listing';
import { ReportForm } from './report-dialog-form';

/**
 * The listing report's form, loaded when its dialog first opens (with the schemas and the form
 * library, which a listing's first load leaves out).
 */
export default function ReportListingForm({
  listingId,
  report,
  onSent,
  onCancel,
}: {
  listingId: string;
  report: ReturnType<typeof useReportListing>;
  onSent(message: string): void;
  onCancel(): void;
}) {
  return (
    <ReportForm
      reasons={REPORT_REASONS}
      labels={REPORT_REASON_LABELS}
      schema={reportSchema}
      isPending={report.isPending}
      error={report.error}
      send={(input, sent) =>
        report.mutate({ listingId, ...input }, { onSuccess: (answer) => sent(answer.message) })
      }
      onSent={onSent}
      onCancel={onCancel}
    />
  );
}
