import { useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Banner } from '../../components/ui/banner';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import { AccountActions } from './account-actions';
import { BlockedStudents } from './blocked-students';
import { DownloadMyData } from './download-my-data';
import { MyListings } from './my-listings';
import { ProfileForm } from './profile-form';
import { PushNotificationsControl } from './push-notifications-control';
import { RatingsPrompt } from './ratings-prompt';
import { MessageMailToggle } from './message-mail-toggle';
import { TermEndMailToggle } from './term-end-mail-toggle';
import { useFlashBanner } from './use-flash-banner';

export default function ProfilePage() {
  const { user } = useSession();
  const { banner, show } = useFlashBanner();
  // The student's listings show at once; My Listings takes them there on a long page.
  const [isListingsOpen] = useState(true);

  return (
    <section className="w-full py-2">
      <PageTitle title="Profile" />
      <h1 className="text-center text-2xl font-bold text-slate-900 sm:text-3xl">Profile</h1>
      {!user ? (
        <Loading />
      ) : (
        <>
          <div className="mx-auto mt-6 max-w-md space-y-6">
            {user.emailVerified ? <RatingsPrompt userId={user._id} /> : null}
            <ProfileForm user={user} onUpdated={(message) => show('blue', message)} />
            <AccountActions
              userId={user._id}
              isListingsOpen={isListingsOpen}
              onToggleListings={() =>
                document.getElementById('my-listings')?.scrollIntoView({ block: 'start' })
              }
            />
            <DownloadMyData />
            <Link to={paths.notifications} className="link flex min-h-11 items-center font-medium">
              What reaches you: mail, push and quiet hours, kind by kind
            </Link>
            <MessageMailToggle />
            <TermEndMailToggle />
            {user.emailVerified ? <PushNotificationsControl /> : null}
            <BlockedStudents />
          </div>
          {/* Fixed to the viewport so the feedback shows wherever the user has scrolled to. */}
          {banner ? (
            <div className="fixed inset-x-4 bottom-4 z-40 mx-auto max-w-md shadow-lg">
              <Banner tone={banner.tone} message={banner.message} />
            </div>
          ) : null}
          {isListingsOpen ? (
            <section id="my-listings" aria-labelledby="my-listings-title" className="mt-8">
              <h2 id="my-listings-title" className="mb-4 text-xl font-bold text-slate-900">
                Your listings
              </h2>
              <MyListings userId={user._id} onFeedback={show} />
            </section>
          ) : null}
        </>
      )}
    </section>
  );
}
