import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Footer } from '../components/layout/footer';
import { Header } from '../components/layout/header';
import { OfflineNotice } from '../components/layout/offline-notice';
import { Loading } from '../components/ui/spinner';
import { RenderClock } from '../lib/render-clock';
import { HydratedSignal } from './hydrated-signal';
import { RouteErrorBoundary } from './route-error-boundary';
import { ScrollToTop } from './scroll-to-top';

/** Every page: skip link, header, one <main>, footer. */
export function RootLayout() {
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-brand-700 px-4 py-2 font-semibold text-white focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <ScrollToTop />
      <Header />
      <OfflineNotice />
      {/* At least a screen high (less the header), so the footer starts below the fold and does
          not jump down when the page's data arrives. */}
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto min-h-[calc(100vh-4rem)] w-full max-w-6xl flex-1 px-4 py-6 outline-none"
      >
        {/* Keyed by path, so leaving a failed page clears the error. */}
        <RouteErrorBoundary key={pathname}>
          <Suspense fallback={<Loading />}>
            <RenderClock>
              <Outlet />
            </RenderClock>
            <HydratedSignal />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
    </div>
  );
}
