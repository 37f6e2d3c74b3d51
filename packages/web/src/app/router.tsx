import { lazy, type ComponentType } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { paths, webPaths } from '../config/paths';
import { GuestOnlyRoute } from './guest-only-route';
import { ProtectedRoute } from './protected-route';
import { RedirectKeepingQuery } from './redirects';
import { RootLayout } from './root-layout';

/**
 * A page whose code can be loaded ahead (`load()`): once loaded it renders at once, without
 * suspending, so a server-rendered page hydrates in one pass (docs/decisions/012).
 */
function preloadablePage(importPage: () => Promise<{ default: ComponentType }>) {
  let loaded: ComponentType | undefined;
  const load = () =>
    importPage().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(load);
  function Page() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return Object.assign(Page, { load });
}

// Every page is its own chunk, loaded when first visited. (The declarative router is used rather than
// createBrowserRouter: it is ~17 KB gzip smaller, which keeps the home page inside its budget.) The
// landing pages can be loaded ahead, before the page they render is hydrated.
export const HomePage = preloadablePage(() => import('../features/home/home-page'));
const SignInPage = lazy(() => import('../features/auth/sign-in-page'));
const SignUpPage = lazy(() => import('../features/auth/sign-up-page'));
const VerifyEmailPage = lazy(() => import('../features/auth/verify-email-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page'));
export const AboutPage = preloadablePage(() => import('../features/about/about-page'));
export const SearchPage = preloadablePage(() => import('../features/search/search-page'));
export const ListingPage = preloadablePage(() => import('../features/listings/listing-page'));
const ContactSellerPage = lazy(() => import('../features/contact-seller/contact-seller-page'));
const GroupmeInstructionsPage = lazy(() => import('../features/groupme/groupme-instructions-page'));
const HowToSellPage = lazy(() => import('../features/guides/how-to-sell-page'));
const ComponentPreviewPage = lazy(() => import('../features/dev/component-preview-page'));
const CreateListingPage = lazy(() => import('../features/listings/create-listing-page'));
const SellMyShelfPage = lazy(() => import('../features/listings/sell-my-shelf-page'));
const ProfilePage = lazy(() => import('../features/profile/profile-page'));
const NotificationsPage = lazy(() => import('../features/notifications/notifications-page'));
const UpdateListingPage = lazy(() => import('../features/listings/update-listing-page'));
const NotFoundPage = lazy(() => import('../features/errors/not-found-page'));
export const CoursePage = preloadablePage(() => import('../features/courses/course-page'));
const AlertsPage = lazy(() => import('../features/alerts/alerts-page'));
const UnsubscribePage = lazy(() => import('../features/alerts/unsubscribe-page'));
const SavedPage = lazy(() => import('../features/saved/saved-page'));
const RatingsPage = lazy(() => import('../features/ratings/ratings-page'));
const PublicProfilePage = lazy(() => import('../features/ratings/public-profile-page'));
const ModerationPage = lazy(() => import('../features/moderation/moderation-page'));
export const PrivacyPage = preloadablePage(() => import('../features/privacy/privacy-page'));
const StatisticsPage = lazy(() => import('../features/statistics/statistics-page'));
const ListingLinkPage = lazy(() => import('../features/listings/listing-link-page'));
const SsoFinishPage = lazy(() => import('../features/auth/sso-finish-page'));
const InboxPage = lazy(() => import('../features/messages/inbox-page'));
const ThreadPage = lazy(() => import('../features/messages/thread-page'));
const MessageSellerPage = lazy(() => import('../features/messages/message-seller-page'));
const MyCoursesPage = lazy(() => import('../features/my-courses/my-courses-page'));
const SsoProblemPage = lazy(() => import('../features/auth/sso-problem-page'));

/** The route table (spec section 2). */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomePage />} />
        <Route element={<GuestOnlyRoute />}>
          <Route path={webPaths.signIn.pattern} element={<SignInPage />} />
          <Route path={webPaths.signUp.pattern} element={<SignUpPage />} />
        </Route>
        <Route path={webPaths.verifyEmail.pattern} element={<VerifyEmailPage />} />
        <Route path={webPaths.ssoFinish.pattern} element={<SsoFinishPage />} />
        <Route path={webPaths.ssoProblem.pattern} element={<SsoProblemPage />} />
        <Route path={webPaths.forgotPassword.pattern} element={<ForgotPasswordPage />} />
        <Route path={webPaths.resetPassword.pattern} element={<ResetPasswordPage />} />
        <Route path={webPaths.about.pattern} element={<AboutPage />} />
        <Route path={webPaths.privacy.pattern} element={<PrivacyPage />} />
        <Route path={webPaths.search.pattern} element={<SearchPage />} />
        <Route path={webPaths.listing.pattern} element={<ListingPage />} />
        <Route path={webPaths.course.pattern} element={<CoursePage />} />
        <Route path={webPaths.myCourses.pattern} element={<MyCoursesPage />} />
        <Route path={webPaths.listingLink.pattern} element={<ListingLinkPage />} />
        <Route path={webPaths.contactSeller.pattern} element={<ContactSellerPage />} />
        <Route path={webPaths.groupmeInstructions.pattern} element={<GroupmeInstructionsPage />} />
        <Route path={webPaths.howToSell.pattern} element={<HowToSellPage />} />
        <Route path={webPaths.componentPreview.pattern} element={<ComponentPreviewPage />} />
        <Route path={webPaths.alertsUnsubscribe.pattern} element={<UnsubscribePage />} />
        <Route element={<ProtectedRoute />}>
          <Route path={webPaths.createListing.pattern} element={<CreateListingPage />} />
          <Route path={webPaths.sellMyShelf.pattern} element={<SellMyShelfPage />} />
          <Route path={webPaths.profile.pattern} element={<ProfilePage />} />
          <Route path={webPaths.moderation.pattern} element={<ModerationPage />} />
          <Route path={webPaths.statistics.pattern} element={<StatisticsPage />} />
          <Route path={webPaths.updateListing.pattern} element={<UpdateListingPage />} />
          <Route path={webPaths.profileAlerts.pattern} element={<AlertsPage />} />
          <Route path={webPaths.notifications.pattern} element={<NotificationsPage />} />
          <Route path={webPaths.saved.pattern} element={<SavedPage />} />
          <Route path={webPaths.ratings.pattern} element={<RatingsPage />} />
          <Route path={webPaths.publicProfile.pattern} element={<PublicProfilePage />} />
          <Route path={webPaths.messages.pattern} element={<InboxPage />} />
          <Route path={webPaths.messageSeller.pattern} element={<MessageSellerPage />} />
          <Route path={webPaths.conversation.pattern} element={<ThreadPage />} />
        </Route>
        {/* Pages of the earlier version that were mocks now lead somewhere useful. */}
        <Route path="/new-search" element={<RedirectKeepingQuery to={paths.search} />} />
        <Route path="/updated-sign-up" element={<Navigate to={paths.signUp} replace />} />
        <Route path="/popup" element={<Navigate to={paths.home} replace />} />
        <Route
          path={webPaths.sell.pattern}
          element={<RedirectKeepingQuery to={paths.createListing} />}
        />
        <Route path={webPaths.notFound.pattern} element={<NotFoundPage />} />
        <Route path="*" element={<Navigate to={paths.notFound} replace />} />
      </Route>
    </Routes>
  );
}
