import type { BadgeColor } from '@campus-books/common/display';
import type { ReactNode } from 'react';

// Dark text on a pale tint: every pair passes WCAG AA (≥ 4.5:1) for small text.
const COLORS: Record<BadgeColor, string> = {
  blue: 'bg-blue-100 text-blue-900',
  green: 'bg-green-100 text-green-900',
  yellow: 'bg-yellow-100 text-yellow-900',
  orange: 'bg-orange-100 text-orange-900',
  red: 'bg-red-100 text-red-900',
  grey: 'bg-slate-200 text-slate-800',
};

export function Badge({ color, children }: { color: BadgeColor; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${COLORS[color]}`}
    >
      {children}
    </span>
  );
}
