import { REPORT_REASON_LABELS } from '@campus-books/common/constants';
import {
  CONVERSATION_REPORT_REASONS,
  conversationReportSchema,
} from '@campus-books/common/moderation.schemas';
import { ReportDialog } from '../../components/report-dialog';
import { ReportForm } from '../../components/report-dialog-form';
import { useReportConversation } from './api/report-conversation';

/**
 * "Report conversation": a reason and an optional note, in a dialog. The moderators may then read
 * the conversation (and only then).
 */
export function ReportConversation({ conversationId }: { conversationId: string }) {
  const report = useReportConversation();
  return (
    <ReportDialog
      opener={{ label: 'Report conversation', variant: 'ghost', className: 'min-h-11' }}
      title="Report this conversation"
      hint="The campus moderators will be able to read this conversation while they look at your report. The other student is not told about it."
      isPending={report.isPending}
      form={(end) => (
        <ReportForm
          reasons={CONVERSATION_REPORT_REASONS}
          labels={REPORT_REASON_LABELS}
          schema={conversationReportSchema}
          isPending={report.isPending}
          error={report.error}
          send={(input, sent) =>
            report.mutate(
              { conversationId, ...input },
              { onSuccess: (answer) => sent(answer.message) },
            )
          }
          {...end}
        />
      )}
    />
  );
}
