import { createContext, use, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';

/** When the server rendered this document (epoch ms), or null for a page rendered in the browser. */
export const RenderedAtContext = createContext<number | null>(null);

const ClockContext = createContext<number | null>(null);

/**
 * "Listed 3 days ago" must read the same in the server's HTML and in the browser's first render, or
 * hydration would find a different text. The page the document was rendered for keeps the server's
 * time; any page navigated to afterwards uses the browser's clock.
 */
export function RenderClock({ children }: { children: ReactNode }) {
  const renderedAt = use(RenderedAtContext);
  const { key } = useLocation();
  const [firstKey] = useState(key);
  return <ClockContext value={key === firstKey ? renderedAt : null}>{children}</ClockContext>;
}

/** The time relative dates are computed from. */
export function useNow(): number {
  return use(ClockContext) ?? Date.now();
}
