import type { ReactNode } from 'react';

const TONES = {
  blue: 'border-blue-300 bg-blue-50 text-blue-950',
  green: 'border-green-300 bg-green-50 text-green-950',
};

/** An information box for hints next to a form (e.g. the sign-up privacy note). */
export function TipBox(props: { title: string; tone?: keyof typeof TONES; children: ReactNode }) {
  return (
    <aside className={`rounded-xl border p-4 text-sm ${TONES[props.tone ?? 'blue']}`}>
      <p className="font-bold">{props.title}</p>
      <div className="mt-1">{props.children}</div>
    </aside>
  );
}
