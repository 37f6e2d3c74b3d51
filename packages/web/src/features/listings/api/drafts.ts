import type { Draft, DraftFields, DraftPublishAnswer } from '@campus-books/common/shelf.schemas';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/drafts: the seller's drafts kept on the server, oldest first. */
export async function fetchDrafts(signal?: AbortSignal): Promise<Draft[]> {
  return (await apiRequest<{ drafts: Draft[] }>('/api/drafts', { signal })).drafts;
}

/** PUT /api/drafts/{id}: the device makes the id, so sending a save again writes the same draft. */
export function putDraft(id: string, fields: DraftFields, imageUrls: string[]): Promise<Draft> {
  return apiRequest<Draft>(`/api/drafts/${id}`, { method: 'PUT', body: { fields, imageUrls } });
}

export function deleteDraft(id: string): Promise<unknown> {
  return apiRequest(`/api/drafts/${id}`, { method: 'DELETE' });
}

/** POST /api/drafts/publish: one listing per draft, ever; a report of each. */
export function publishDrafts(draftIds: string[]): Promise<DraftPublishAnswer> {
  return apiRequest<DraftPublishAnswer>('/api/drafts/publish', {
    method: 'POST',
    body: { draftIds },
  });
}
