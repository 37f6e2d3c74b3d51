import { PRODUCT_VERSION } from '@campus-books/common/version';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useCampus } from '../../lib/campus';
import { usePublicConfig } from '../../lib/public-config';
import { useSession } from '../../lib/session';

const FOOTER_LINKS = [
  { to: paths.search, label: 'Search Books' },
  { to: paths.createListing, label: 'Sell Books' },
  { to: paths.about, label: 'About' },
  { to: paths.privacy, label: 'Privacy' },
];
/** A visitor is offered an account; a signed-in student their own pages instead. */
const SIGNED_OUT_LINKS = [
  { to: paths.signUp, label: 'Sign Up' },
  { to: paths.signIn, label: 'Sign In' },
];
const SIGNED_IN_LINKS = [
  { to: paths.profile, label: 'Profile' },
  { to: paths.messages(), label: 'Messages' },
  { to: paths.saved, label: 'Saved' },
];

export function Footer() {
  const donationUrl = usePublicConfig()?.donationUrl;
  const campus = useCampus();
  const credit = campus.footerCredit;
  const isSignedIn = useSession().user !== null;
  const links = [...FOOTER_LINKS, ...(isSignedIn ? SIGNED_IN_LINKS : SIGNED_OUT_LINKS)];
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 md:flex-row md:items-start md:justify-between">
        <div>
          <p className="text-lg font-extrabold text-brand-900">{campus.productName}</p>
          {credit ? <p className="mt-1 text-sm text-slate-700">{credit}</p> : null}
          <p className="mt-1 text-sm text-slate-700">Version {PRODUCT_VERSION}</p>
        </div>
        <nav aria-label="Footer">
          <ul className="grid grid-cols-2 gap-x-8 gap-y-2 text-sm sm:grid-cols-3">
            {links.map((link) => (
              <li key={link.label}>
                <Link to={link.to} className="text-slate-800 underline-offset-2 hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {donationUrl ? (
          <a
            href={donationUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-2 self-start rounded-lg bg-amber-300 px-4 py-2 text-sm font-semibold text-slate-900 no-underline hover:bg-amber-400"
          >
            <span aria-hidden="true">☕</span> Buy us a coffee
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        ) : null}
      </div>
    </footer>
  );
}
