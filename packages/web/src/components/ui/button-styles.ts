export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

const BASE =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold no-underline transition-colors disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-brand-700 text-white shadow-sm hover:bg-brand-800',
  secondary: 'border border-slate-300 bg-white text-slate-900 shadow-sm hover:bg-slate-100',
  danger: 'bg-red-700 text-white shadow-sm hover:bg-red-800',
  ghost: 'text-brand-800 hover:bg-brand-50',
};

/** Shared by Button and ButtonLink so a link that looks like a button looks exactly like one. */
export function buttonClassName(variant: ButtonVariant = 'primary', extra?: string): string {
  return [BASE, VARIANTS[variant], extra].filter(Boolean).join(' ');
}
