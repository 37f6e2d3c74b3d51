/**
 * A read that callers arriving together share, each handed one that started after its call: the
 * first caller starts a read; every caller that arrives while it is in flight waits for the next
 * one, which they all share. A read that started before a caller arrived may predate a write its
 * client saw acknowledged, so it is never handed to it; under load one read serves every caller of
 * a round trip, not one each. A failed read fails the callers that shared it only.
 */
export function sharedFreshReads<T>(read: () => Promise<T>): () => Promise<T> {
  let reading: Promise<T> | null = null;
  let nextRead: Promise<T> | null = null;
  const current = (): Promise<T> => {
    if (!reading) {
      const started = read().finally(() => {
        if (reading === started) reading = null;
      });
      reading = started;
      return started;
    }
    nextRead ??= reading
      .then(
        () => {},
        () => {},
      )
      .then(() => {
        nextRead = null;
        return current();
      });
    return nextRead;
  };
  return current;
}
