import type { Draft, DraftFields, DraftPublishAnswer } from '@campus-books/common/shelf.schemas';
import { apiCall } from '../../../lib/api-client';

/** GET /api/drafts: the seller's drafts kept on the server, oldest first. */
export async function fetchDrafts(signal?: AbortSignal): Promise<Draft[]> {
  return (await apiCall('GET /api/drafts', { signal })).drafts;
}

/** PUT /api/drafts/{id}: the device makes the id, so sending a save again writes the same draft. */
export function putDraft(id: string, fields: DraftFields, imageUrls: string[]): Promise<Draft> {
  return apiCall('PUT /api/drafts/:id', { params: { id }, body: { fields, imageUrls } });
}

export function deleteDraft(id: string): Promise<unknown> {
  return apiCall('DELETE /api/drafts/:id', { params: { id } });
}

/** POST /api/drafts/publish: one listing per draft, ever; a report of each. */
export function publishDrafts(draftIds: string[]): Promise<DraftPublishAnswer> {
  return apiCall('POST /api/drafts/publish', { body: { draftIds } });
}
