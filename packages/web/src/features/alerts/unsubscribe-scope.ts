/**
 * What a mail's unsubscribe token names, read from its (signed, not secret) body to word the page:
 * some alerts, and/or the mails about saved listings. The server checks the signature on the POST.
 */
export function scopeOf(token: string): { alerts: number; savedListings: boolean } {
  try {
    const body = token.split('.')[0]!.replace(/-/g, '+').replace(/_/g, '/');
    const parsed = JSON.parse(atob(body)) as { a?: unknown; s?: unknown };
    return {
      alerts: Array.isArray(parsed.a) ? parsed.a.length : 0,
      savedListings: parsed.s === 1,
    };
  } catch {
    return { alerts: 1, savedListings: false };
  }
}

export function describeScope({ alerts, savedListings }: ReturnType<typeof scopeOf>): string {
  const parts: string[] = [];
  if (alerts === 1) parts.push('this alert');
  if (alerts > 1) parts.push(`these ${alerts} alerts`);
  if (savedListings) parts.push('your saved listings (price drops and sales)');
  return parts.length > 0 ? parts.join(' and ') : 'this alert';
}
