import { PageTitle } from '../../components/page-title';
import { ButtonLink } from '../../components/ui/button-link';
import { paths } from '../../config/paths';
import { useCampus } from '../../lib/campus';

const STEPS = [
  {
    title: 'Create your account',
    text: 'Sign up with your school e-mail address and confirm it from the link in your inbox.',
  },
  {
    title: 'Answer buyers',
    text: 'Buyers message you and make offers here, and we e-mail you about the ones you have not read. A GroupMe link in your profile is a second way to reach you, if you want one.',
  },
  {
    title: 'Take a few photos',
    text: 'Photograph the cover and a page or two in good light. The first photo becomes the cover.',
  },
  {
    title: 'Create a listing',
    text: 'Give the book’s name, course number, condition, school, major and your price.',
  },
  {
    title: 'Meet the buyer',
    text: 'Agree on a time, a meetup spot and payment in your conversation, then hand over the book on campus.',
  },
  {
    title: 'Mark it as sold',
    text: 'Mark the listing as sold to the buyer, so it leaves the searches and you can rate each other.',
  },
];

export default function HowToSellPage() {
  const { productName } = useCampus();
  return (
    <div className="mx-auto max-w-3xl">
      <PageTitle title="How to sell a book" />
      <h1 className="text-3xl font-bold text-slate-900">How to sell a book</h1>
      <ol className="mt-6 space-y-4">
        {STEPS.map((step, index) => (
          <li
            key={step.title}
            className="flex gap-4 rounded-xl border border-slate-200 bg-white p-4"
          >
            <span
              aria-hidden="true"
              className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-100 font-bold text-brand-800"
            >
              {index + 1}
            </span>
            <div>
              <h2 className="font-semibold text-slate-900">{step.title}</h2>
              <p className="mt-1 text-slate-700">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
      <div className="mt-6 flex flex-wrap gap-3">
        <ButtonLink to={paths.createListing}>Sell a book</ButtonLink>
        <ButtonLink to={paths.signUp} variant="secondary">
          Sign up
        </ButtonLink>
      </div>
      <aside className="mt-10 rounded-xl border border-amber-300 bg-amber-50 p-5 text-amber-950">
        <h2 className="font-bold">More guides are under construction</h2>
        <p className="mt-1 text-sm">
          We are still writing the rest of the {productName} help pages. Thanks for your patience!
        </p>
      </aside>
    </div>
  );
}
