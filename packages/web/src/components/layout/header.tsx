import { lazy, Suspense, useId, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import { buttonClassName } from '../ui/button-styles';
import { AccountIcon } from './account-icon';
import { HeaderSearch } from './header-search';
import { Logo } from './logo';

const NAV_LINK =
  'rounded-md px-3 py-2 text-sm font-semibold text-slate-800 no-underline hover:bg-slate-100';

const UnreadBadge = lazy(() => import('./unread-badge'));

export function Header() {
  const { user, isLoading } = useSession();
  // Only once the server has confirmed the stored user: an ended session asks for no count.
  const badge = (kind: 'count' | 'dot') =>
    user?.emailVerified && !isLoading ? (
      <Suspense fallback={null}>
        <UnreadBadge kind={kind} />
      </Suspense>
    ) : null;
  const location = useLocation();
  const menuId = useId();
  // The menu stays open only for the page it was opened on, so any navigation closes it.
  const [openOnKey, setOpenOnKey] = useState<string | null>(null);
  const isMenuOpen = openOnKey === location.key;

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      {/*
       * One row: the logo never shrinks, the search gives way first (down to 10 rem), the links keep
       * their width. Where even that does not fit (a tablet, large text) the links move to a row of
       * their own, whole, rather than squeezing the logo onto two lines.
       */}
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <Logo />
        <HeaderSearch className="ml-auto hidden max-w-sm min-w-40 flex-1 md:flex" />
        <nav
          aria-label="Main"
          className="ml-auto hidden min-w-0 flex-wrap items-center justify-end gap-2 md:flex"
        >
          <NavLink to={paths.myCourses} className={`shrink-0 ${NAV_LINK}`}>
            My courses
          </NavLink>
          <NavLink to={paths.about} className={NAV_LINK}>
            About
          </NavLink>
          {user?.isModerator ? (
            <NavLink to={paths.moderation} className={NAV_LINK}>
              Moderation
            </NavLink>
          ) : null}
          {user ? (
            <>
              <NavLink
                to={paths.messages()}
                className={`${NAV_LINK} whitespace-nowrap`}
                data-testid="header-messages"
              >
                Messages
                {badge('count')}
              </NavLink>
              {/* Wide screens only: beside the search it would squeeze the row on a tablet. */}
              <Link
                to={paths.sellMyShelf}
                className={`hidden whitespace-nowrap xl:inline-flex ${NAV_LINK}`}
              >
                Sell several books
              </Link>
              <Link to={paths.createListing} className={buttonClassName('primary', 'py-2')}>
                New Listing
              </Link>
              <Link
                to={paths.profile}
                aria-label="Account"
                title="Account"
                className="rounded-full"
              >
                <AccountIcon user={user} />
              </Link>
            </>
          ) : (
            <>
              <Link to={paths.signIn} className={NAV_LINK}>
                Login
              </Link>
              <Link to={paths.signUp} className={buttonClassName('primary', 'py-2')}>
                Sign Up
              </Link>
            </>
          )}
        </nav>
        <button
          type="button"
          className="relative ml-auto rounded-md p-2 text-slate-900 hover:bg-slate-100 md:hidden"
          aria-expanded={isMenuOpen}
          aria-controls={menuId}
          onClick={() => setOpenOnKey(isMenuOpen ? null : location.key)}
        >
          <span className="sr-only">Menu</span>
          {badge('dot')}
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6">
            {isMenuOpen ? (
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" />
            ) : (
              <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" />
            )}
          </svg>
        </button>
      </div>
      <nav
        id={menuId}
        aria-label="Mobile"
        hidden={!isMenuOpen}
        className="border-t border-slate-200 px-4 pt-3 pb-4 md:hidden"
      >
        <HeaderSearch className="mb-3" />
        <ul className="flex flex-col gap-1">
          <li>
            <Link to={paths.myCourses} className={`block ${NAV_LINK}`}>
              My courses
            </Link>
          </li>
          <li>
            <Link to={paths.about} className={`block ${NAV_LINK}`}>
              About
            </Link>
          </li>
          {user ? (
            <>
              <li>
                <Link
                  to={paths.messages()}
                  className={`block ${NAV_LINK}`}
                  data-testid="menu-messages"
                >
                  Messages
                  {badge('count')}
                </Link>
              </li>
              <li>
                <Link to={paths.createListing} className={`block ${NAV_LINK}`}>
                  New Listing
                </Link>
              </li>
              <li>
                <Link to={paths.sellMyShelf} className={`block ${NAV_LINK}`}>
                  Sell several books
                </Link>
              </li>
              <li>
                <Link to={paths.profile} className={`block ${NAV_LINK}`}>
                  Account
                </Link>
              </li>
              {user.isModerator ? (
                <li>
                  <Link to={paths.moderation} className={`block ${NAV_LINK}`}>
                    Moderation
                  </Link>
                </li>
              ) : null}
            </>
          ) : (
            <>
              <li>
                <Link to={paths.signIn} className={`block ${NAV_LINK}`}>
                  Login
                </Link>
              </li>
              <li>
                <Link to={paths.signUp} className={`block ${NAV_LINK}`}>
                  Sign Up
                </Link>
              </li>
            </>
          )}
        </ul>
      </nav>
    </header>
  );
}
