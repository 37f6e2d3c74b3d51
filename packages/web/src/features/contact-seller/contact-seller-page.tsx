import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { Loading } from '../../components/ui/spinner';
import { paths, signInPath } from '../../config/paths';
import { useCampus } from '../../lib/campus';
import { usePublicConfig } from '../../lib/public-config';
import { useSession } from '../../lib/session';
import { useSeller } from '../../api/get-seller';

const REMINDERS = [
  'The date and time you would like to meet',
  'How you will pay (for example Venmo, Zelle or another payment app)',
  'Where on campus to meet',
  'Any other details, such as the book’s name and course number',
];

function SupportBox() {
  const donationUrl = usePublicConfig()?.donationUrl;
  const { productName } = useCampus();
  return (
    <aside className="mt-8 rounded-xl border border-amber-300 bg-amber-50 p-5 text-amber-950">
      <h2 className="font-bold">{productName} is free</h2>
      <p className="mt-1 text-sm">
        Students built this platform for students. There are no fees for buyers or sellers.
      </p>
      {donationUrl ? (
        <a
          href={donationUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-3 inline-block rounded-lg bg-amber-300 px-4 py-2 text-sm font-semibold text-slate-900 no-underline hover:bg-amber-400"
        >
          Support us with a coffee <span className="sr-only">(opens in a new tab)</span>
        </a>
      ) : null}
    </aside>
  );
}

function SellerContact({ sellerId }: { sellerId: string }) {
  const navigate = useNavigate();
  const { data: seller, isPending, error } = useSeller(sellerId, { enabled: true });

  if (isPending) return <Loading />;
  if (error) {
    return (
      <div role="alert">
        <h1 className="text-2xl font-bold">Something went wrong!</h1>
        <p className="mt-2 text-slate-700">{error.message}</p>
        <ButtonLink to={paths.search} className="mt-4">
          Browse other books
        </ButtonLink>
      </div>
    );
  }

  if (!seller.groupmelink) {
    return (
      <>
        <h1 className="text-3xl font-bold text-slate-900">Write to the seller here</h1>
        <p className="mt-3 text-lg text-slate-800">
          {seller.username} gave no GroupMe link: write to them with “Message seller” on the
          book&apos;s page.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => navigate(-1)}>
            Back
          </Button>
          <ButtonLink to={paths.messages()}>Your messages</ButtonLink>
        </div>
      </>
    );
  }

  return (
    <>
      <h1 className="text-3xl font-bold text-slate-900">Great Choice!</h1>
      <p className="mt-3 text-lg text-slate-800">
        Connect with the seller on GroupMe:{' '}
        <a
          href={seller.groupmelink}
          target="_blank"
          rel="noopener noreferrer"
          className="link text-lg"
        >
          {seller.username}
          <span className="sr-only"> on GroupMe (opens in a new tab)</span>
        </a>
      </p>
      <section
        aria-labelledby="reminders"
        className="mt-6 rounded-xl border border-slate-200 bg-white p-5"
      >
        <h2 id="reminders" className="font-bold text-slate-900">
          In your message, remember to include:
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-800">
          {REMINDERS.map((reminder) => (
            <li key={reminder}>{reminder}</li>
          ))}
        </ul>
      </section>
      <div className="mt-6 flex flex-wrap gap-3">
        <Button variant="secondary" onClick={() => navigate(-1)}>
          Back
        </Button>
        <ButtonLink to={paths.home}>Done</ButtonLink>
      </div>
    </>
  );
}

export default function ContactSellerPage() {
  const { sellerId } = useParams();
  const { user, isLoading } = useSession();
  const location = useLocation();

  return (
    <div className="mx-auto max-w-2xl">
      <PageTitle title="Contact Seller" />
      {user && sellerId ? (
        <SellerContact sellerId={sellerId} />
      ) : isLoading ? (
        <Loading />
      ) : (
        <>
          <h1 className="text-3xl font-bold text-slate-900">Contact the seller</h1>
          <p className="mt-3 text-slate-800">
            Seller contact details are only shared with signed-in students.
          </p>
          <div className="mt-5 flex flex-wrap gap-3">
            <ButtonLink to={signInPath(location.pathname)}>Sign in to continue</ButtonLink>
            <Link to={paths.signUp} className="link self-center">
              New here? Sign up
            </Link>
          </div>
        </>
      )}
      <SupportBox />
    </div>
  );
}
