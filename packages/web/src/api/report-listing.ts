import type { ApiMessage } from '@campus-books/common/api';
import type { ReportInput } from '@campus-books/common/moderation.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../lib/api-client';

/** POST /api/reports/{listingId}: one report per student and listing (409 for a second). */
export function reportListing({
  listingId,
  ...body
}: ReportInput & { listingId: string }): Promise<ApiMessage> {
  return apiCall('POST /api/reports/:listingId', { params: { listingId }, body });
}

export function useReportListing() {
  return useMutation({ mutationFn: reportListing });
}
