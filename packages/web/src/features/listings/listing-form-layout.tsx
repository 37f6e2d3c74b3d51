import type { ReactNode } from 'react';
import { PageTitle } from '../../components/page-title';

/** The frame of the create and update pages: the title (the page's only h1) above a white card. */
export function ListingFormLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-2xl py-2 sm:py-6">
      <PageTitle title={title} />
      <h1 className="text-center text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
        {children}
      </div>
    </section>
  );
}
