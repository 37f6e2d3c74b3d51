import { PRODUCT_VERSION } from '@campus-books/common/version';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ButtonLink } from '../../components/ui/button-link';
import { paths } from '../../config/paths';
import { useCampus } from '../../lib/campus';
import { useAccountRules } from '../../lib/public-config';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-10">
      <h2 className="text-2xl font-bold text-slate-900">{title}</h2>
      <div className="mt-3 space-y-3 text-slate-800">{children}</div>
    </section>
  );
}

export default function AboutPage() {
  const schoolDomain = useAccountRules().schoolEmailDomain;
  const campus = useCampus();
  return (
    <div className="mx-auto max-w-3xl">
      <PageTitle title="About" />
      <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">
        About {campus.productName}
      </h1>
      <p className="mt-4 text-lg text-slate-800">
        {campus.productName} is a free marketplace where students at {campus.name} sell and buy used
        course textbooks from each other. No shipping, no middleman, no fees: just students helping
        students spend less on books.
      </p>

      <Section title="Who runs it">
        <p>
          {campus.productName} is built and maintained by a group of student volunteers, for
          students. It is not a business: there are no ads, no fees, and we never sell your data.
        </p>
      </Section>

      <Section title="How it works">
        <ol className="list-decimal space-y-2 pl-5">
          <li>
            <Link to={paths.signUp} className="link">
              Sign up
            </Link>{' '}
            with your school e-mail address ({schoolDomain ? `@${schoolDomain}` : '.edu'}) and
            confirm it with the link we send you. Only students can join.
          </li>
          <li>
            If you like, add your GroupMe profile link (
            <Link to={paths.groupmeInstructions} className="link">
              where can I find it?
            </Link>
            ) as a second way for buyers to reach you.
          </li>
          <li>
            Sell a book by creating a listing with a few photos, its course number, condition and
            price. Buyers{' '}
            <Link to={paths.search} className="link">
              search
            </Link>{' '}
            by name, course number, major, condition or school.
          </li>
          <li>
            A buyer messages you here and may make an offer. You agree on a time, a meetup spot on
            campus and how to pay (cash or a payment app). The exchange itself happens in person.
          </li>
          <li>Once the book is sold, mark it as sold so it leaves the search results.</li>
        </ol>
      </Section>

      <Section title="Privacy">
        <ul className="list-disc space-y-2 pl-5">
          <li>
            We use your data only to verify that you are a student and that listings are legitimate.
          </li>
          <li>
            Your password is hashed: we store a one-way fingerprint of it, never the password
            itself.
          </li>
          <li>Your sessions are protected by signed authentication tokens in secure cookies.</li>
          <li>
            Your e-mail address is never shown to other users. Your GroupMe link is shown only to
            signed-in students who want to buy your book.
          </li>
          <li>
            Photos are stripped of their hidden location data before they are stored. Deleting your
            account deletes your listings and photos.
          </li>
        </ul>
      </Section>

      <div className="mt-10 flex flex-wrap gap-3">
        <ButtonLink to={paths.search}>Browse books</ButtonLink>
        <ButtonLink to={paths.howToSell} variant="secondary">
          How to sell a book
        </ButtonLink>
      </div>

      <p className="mt-10 text-sm text-slate-700">
        {campus.productName} version {PRODUCT_VERSION}
      </p>
    </div>
  );
}
