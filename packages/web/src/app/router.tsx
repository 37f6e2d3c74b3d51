import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths';
import { GuestOnlyRoute } from './guest-only-route';
import { ProtectedRoute } from './protected-route';
import { RedirectKeepingQuery } from './redirects';
import { RootLayout } from './root-layout';

// Every page is its own chunk, loaded when first visited. (The declarative router is used rather than
// createBrowserRouter: it is ~17 KB gzip smaller, which keeps the home page inside its budget.)
const HomePage = lazy(() => import('../features/home/home-page'));
const SignInPage = lazy(() => import('../features/auth/sign-in-page'));
const SignUpPage = lazy(() => import('../features/auth/sign-up-page'));
const VerifyEmailPage = lazy(() => import('../features/auth/verify-email-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page'));
const AboutPage = lazy(() => import('../features/about/about-page'));
const SearchPage = lazy(() => import('../features/search/search-page'));
const ListingPage = lazy(() => import('../features/listings/listing-page'));
const ContactSellerPage = lazy(() => import('../features/contact-seller/contact-seller-page'));
const GroupmeInstructionsPage = lazy(() => import('../features/groupme/groupme-instructions-page'));
const HowToSellPage = lazy(() => import('../features/guides/how-to-sell-page'));
const ComponentPreviewPage = lazy(() => import('../features/dev/component-preview-page'));
const CreateListingPage = lazy(() => import('../features/listings/create-listing-page'));
const ProfilePage = lazy(() => import('../features/profile/profile-page'));
const UpdateListingPage = lazy(() => import('../features/listings/update-listing-page'));
const NotFoundPage = lazy(() => import('../features/errors/not-found-page'));
const CoursePage = lazy(() => import('../features/courses/course-page'));
const AlertsPage = lazy(() => import('../features/alerts/alerts-page'));
const UnsubscribePage = lazy(() => import('../features/alerts/unsubscribe-page'));
const SavedPage = lazy(() => import('../features/saved/saved-page'));
const ModerationPage = lazy(() => import('../features/moderation/moderation-page'));
const ListingLinkPage = lazy(() => import('../features/listings/listing-link-page'));

/** The route table (spec section 2). */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomePage />} />
        <Route element={<GuestOnlyRoute />}>
          <Route path={paths.signIn} element={<SignInPage />} />
          <Route path={paths.signUp} element={<SignUpPage />} />
        </Route>
        <Route path="/verify-email/:token" element={<VerifyEmailPage />} />
        <Route path={paths.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
        <Route path={paths.about} element={<AboutPage />} />
        <Route path={paths.search} element={<SearchPage />} />
        <Route path="/listing/:listingId" element={<ListingPage />} />
        <Route path="/course/:code" element={<CoursePage />} />
        <Route path="/listing-link/:token" element={<ListingLinkPage />} />
        <Route path="/contact-seller/:sellerId" element={<ContactSellerPage />} />
        <Route path={paths.groupmeInstructions} element={<GroupmeInstructionsPage />} />
        <Route path={paths.howToSell} element={<HowToSellPage />} />
        <Route path={paths.componentPreview} element={<ComponentPreviewPage />} />
        <Route path={paths.alertsUnsubscribe} element={<UnsubscribePage />} />
        <Route element={<ProtectedRoute />}>
          <Route path={paths.createListing} element={<CreateListingPage />} />
          <Route path={paths.profile} element={<ProfilePage />} />
          <Route path={paths.moderation} element={<ModerationPage />} />
          <Route path="/update-listing/:listingId" element={<UpdateListingPage />} />
          <Route path={paths.profileAlerts} element={<AlertsPage />} />
          <Route path={paths.saved} element={<SavedPage />} />
        </Route>
        {/* Pages of the earlier version that were mocks now lead somewhere useful. */}
        <Route path="/new-search" element={<RedirectKeepingQuery to={paths.search} />} />
        <Route path="/updated-sign-up" element={<Navigate to={paths.signUp} replace />} />
        <Route path="/popup" element={<Navigate to={paths.home} replace />} />
        <Route path={paths.notFound} element={<NotFoundPage />} />
        <Route path="*" element={<Navigate to={paths.notFound} replace />} />
      </Route>
    </Routes>
  );
}
