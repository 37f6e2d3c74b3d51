/**
 * A message handed to the conversation's message box through the router's state (the listing
 * page's first messages): shown ready to send or edit, never sent by itself.
 */
export interface MessageDraftState {
  draft: string;
}

/** The draft a navigation carried, if any. */
export function draftOf(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('draft' in state)) return undefined;
  const { draft } = state as { draft: unknown };
  return typeof draft === 'string' ? draft : undefined;
}
