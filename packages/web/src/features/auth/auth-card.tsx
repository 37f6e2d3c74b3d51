import type { ReactNode } from 'react';
import { PageTitle } from '../../components/page-title';

/** The centred card every account page uses: the page title (its only h1), a subtitle and the form. */
export function AuthCard({
  title,
  subtitle,
  documentTitle = title,
  children,
}: {
  title: string;
  subtitle?: string;
  documentTitle?: string;
  children: ReactNode;
}) {
  return (
    <section className="mx-auto w-full max-w-md py-2 sm:py-6">
      <PageTitle title={documentTitle} />
      <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
        <h1 className="text-center text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
        {subtitle ? <p className="mt-2 text-center text-slate-700">{subtitle}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
    </section>
  );
}
