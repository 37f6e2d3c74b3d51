import { PageTitle } from '../../components/page-title';
import { ButtonLink } from '../../components/ui/button-link';
import { paths } from '../../config/paths';
import { useCampus } from '../../lib/campus';
import { useSession } from '../../lib/session';
import { HomeSearchForm } from './home-search-form';
import { MostWanted } from '../../components/demand';
import { RecentAdditions } from './recent-additions';

const STEPS = [
  { title: 'Search', text: 'Find the books for your courses by name, course number or major.' },
  {
    title: 'Connect',
    text: 'Message the seller here, make an offer and pick a time and a meetup spot.',
  },
  { title: 'Meet on campus', text: 'Pay with your usual payment app and pick up your book.' },
];

export default function HomePage() {
  // A signed-in student who wants to sell goes straight to the form, not to sign-up.
  const isSignedIn = useSession().user !== null;
  const campus = useCampus();
  return (
    <>
      <PageTitle title={campus.productName} />
      <section className="-mx-4 -mt-6 bg-gradient-to-b from-brand-100 to-slate-50 px-4 pt-12 pb-10 text-center sm:mx-0 sm:mt-0 sm:rounded-3xl sm:pt-16">
        <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
          Sell/Buy your Books
          <span className="mt-2 block text-2xl font-bold text-brand-800 sm:text-3xl">
            at {campus.name}
          </span>
        </h1>
        <p className="mx-auto mt-4 max-w-xl text-lg text-slate-700">
          Student-built marketplace for selling &amp; exchanging course textbooks
        </p>
        <div className="mt-8">
          <HomeSearchForm />
        </div>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <ButtonLink to={isSignedIn ? paths.createListing : paths.signUp}>
            Start Selling
          </ButtonLink>
          <ButtonLink to={paths.about} variant="secondary">
            {/* The spec's label, made descriptive for link lists and search engines. */}
            Learn More<span className="sr-only"> about {campus.productName}</span>
          </ButtonLink>
        </div>
      </section>

      <RecentAdditions />
      <MostWanted />

      <section aria-labelledby="how-it-works" className="mt-12">
        <h2 id="how-it-works" className="text-2xl font-bold text-slate-900">
          How it works
        </h2>
        <ol className="mt-4 grid gap-4 sm:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="rounded-xl border border-slate-200 bg-white p-5">
              <span
                aria-hidden="true"
                className="flex size-8 items-center justify-center rounded-full bg-brand-100 font-bold text-brand-800"
              >
                {index + 1}
              </span>
              <h3 className="mt-3 font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-1 text-sm text-slate-700">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
