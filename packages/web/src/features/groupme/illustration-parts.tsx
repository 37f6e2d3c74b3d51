import type { ReactNode } from 'react';

/** Shared pieces of the hand-drawn GroupMe illustrations: frames, the highlight ring, a pointer. */
export const INK = '#0f172a';
export const MUTED = '#64748b';
export const LINE = '#cbd5e1';
export const ACCENT = '#1c46a3';
export const HIGHLIGHT = '#f59e0b';

export function Illustration({ label, children }: { label: string; children: ReactNode }) {
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox="0 0 320 220"
      className="h-auto w-full rounded-xl border border-slate-200 bg-slate-50"
      fontFamily="system-ui, sans-serif"
    >
      {children}
    </svg>
  );
}

/** A white card with a thin border: a window, a menu, a panel. */
export function Card(props: { x: number; y: number; width: number; height: number; rx?: number }) {
  return <rect rx={8} {...props} fill="#fff" stroke={LINE} strokeWidth="2" />;
}

/** A laptop-like window: title bar, a chat list on the left, a conversation on the right. */
export function DesktopFrame({ children }: { children?: ReactNode }) {
  return (
    <g>
      <Card x={20} y={16} width={280} height={188} rx={10} />
      <rect x="20" y="16" width="280" height="20" rx="10" fill="#e2e8f0" />
      <circle cx="34" cy="26" r="3.5" fill="#f87171" />
      <circle cx="46" cy="26" r="3.5" fill="#fbbf24" />
      <circle cx="58" cy="26" r="3.5" fill="#34d399" />
      <rect x="20" y="36" width="86" height="168" fill="#f1f5f9" />
      {[52, 80, 108].map((y) => (
        <g key={y}>
          <circle cx="38" cy={y} r="8" fill="#bcd1fb" />
          <rect x="52" y={y - 5} width="44" height="4" rx="2" fill={LINE} />
          <rect x="52" y={y + 2} width="30" height="4" rx="2" fill="#e2e8f0" />
        </g>
      ))}
      <rect x="122" y="52" width="110" height="16" rx="8" fill="#e2e8f0" />
      <rect x="170" y="78" width="112" height="16" rx="8" fill="#bcd1fb" />
      <rect x="122" y="104" width="90" height="16" rx="8" fill="#e2e8f0" />
      {children}
    </g>
  );
}

/** A phone: screen with a top bar and a bottom tab bar. */
export function PhoneFrame({ children }: { children?: ReactNode }) {
  return (
    <g>
      <rect x="105" y="8" width="110" height="204" rx="16" fill={INK} />
      <rect x="111" y="18" width="98" height="184" rx="10" fill="#fff" />
      <rect x="145" y="11" width="30" height="4" rx="2" fill="#334155" />
      {children}
    </g>
  );
}

/** An amber ring that says "here". */
export function Highlight({ cx, cy, r = 14 }: { cx: number; cy: number; r?: number }) {
  return (
    <circle
      cx={cx}
      cy={cy}
      r={r}
      fill="none"
      stroke={HIGHLIGHT}
      strokeWidth="3"
      strokeDasharray="5 3"
    />
  );
}

/** A mouse pointer (desktop) or a fingertip (mobile) at (x, y). */
export function Pointer({ x, y, touch = false }: { x: number; y: number; touch?: boolean }) {
  if (touch) {
    return (
      <circle
        cx={x}
        cy={y}
        r="7"
        fill={HIGHLIGHT}
        fillOpacity="0.55"
        stroke={INK}
        strokeWidth="1.5"
      />
    );
  }
  return (
    <path
      d={`M${x} ${y}l0 18 5-5 4 9 3-1.5-4-8.5 7 0z`}
      fill="#fff"
      stroke={INK}
      strokeWidth="1.5"
      strokeLinejoin="round"
    />
  );
}

export function Avatar({ cx, cy, r = 9 }: { cx: number; cy: number; r?: number }) {
  return (
    <g>
      <circle cx={cx} cy={cy} r={r} fill={ACCENT} />
      <circle cx={cx} cy={cy - r * 0.25} r={r * 0.35} fill="#fff" />
      <path d={`M${cx - r * 0.6} ${cy + r * 0.6}q${r * 0.6}-${r * 0.7} ${r * 1.2} 0`} fill="#fff" />
    </g>
  );
}
