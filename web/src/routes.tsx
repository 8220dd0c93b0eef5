import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { RedirectIfSignedIn, RequireAuth } from './auth/guards';
import { FullScreenSpinner } from './components/FullScreenSpinner';

// Every route is its own chunk: the landing page downloads neither the dashboard nor Amplify.
const LandingPage = lazy(() => import('./pages/landing/LandingPage'));
const AuthPage = lazy(() => import('./pages/auth/AuthPage'));
const PrivacyPage = lazy(() => import('./pages/legal/PrivacyPage'));
const TermsPage = lazy(() => import('./pages/legal/TermsPage'));
const UnsubscribePage = lazy(() => import('./pages/unsubscribe/UnsubscribePage'));
// The private listen page (issue 16): its own chunk, the only one with wavesurfer.js.
const ListenPage = lazy(() => import('./pages/listen/ListenPage'));
const NotFoundPage = lazy(() => import('./pages/notfound/NotFoundPage'));
const BetaWaitlistPage = lazy(() => import('./pages/admin/BetaWaitlistPage'));
const DashboardLayout = lazy(() => import('./pages/dashboard/DashboardLayout'));
const DashboardHome = lazy(() => import('./pages/dashboard/DashboardHome'));

const ContactsPage = lazy(() => import('./pages/contacts/ContactsPage'));
const ComposePage = lazy(() => import('./pages/compose/ComposePage'));
const TracksPage = lazy(() => import('./pages/tracks/TracksPage'));
const TrackPipelinePage = lazy(() => import('./pages/tracks/TrackPipelinePage'));
const CampaignsPage = lazy(() => import('./pages/campaigns/CampaignsPage'));
const CampaignDetailPage = lazy(() => import('./pages/campaigns/CampaignDetailPage'));
const OutboxPage = lazy(() => import('./pages/outbox/OutboxPage'));
const LabelFinderPage = lazy(() => import('./pages/labelfinder/LabelFinderPage'));
const AnalyticsPage = lazy(() => import('./pages/analytics/AnalyticsPage'));
const SettingsPage = lazy(() => import('./pages/settings/SettingsPage'));
const SubscriptionPage = lazy(() => import('./pages/subscription/SubscriptionPage'));

/** The route table of spec §2. */
export function AppRoutes() {
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <Routes>
        <Route
          path="/"
          element={
            <RedirectIfSignedIn>
              <LandingPage />
            </RedirectIfSignedIn>
          }
        />
        <Route path="/landing" element={<LandingPage />} />
        <Route
          path="/auth"
          element={
            <RedirectIfSignedIn>
              <AuthPage />
            </RedirectIfSignedIn>
          }
        />
        <Route path="/privacy" element={<PrivacyPage />} />
        <Route path="/terms" element={<TermsPage />} />
        <Route path="/unsubscribe" element={<UnsubscribePage />} />
        <Route path="/l/:token" element={<ListenPage />} />
        <Route
          path="/dashboard"
          element={
            <RequireAuth>
              <DashboardLayout />
            </RequireAuth>
          }
        >
          <Route index element={<DashboardHome />} />
          <Route path="contacts" element={<ContactsPage />} />
          <Route path="compose" element={<ComposePage />} />
          <Route path="tracks" element={<TracksPage />} />
          <Route path="tracks/:trackKey" element={<TrackPipelinePage />} />
          <Route path="campaigns" element={<CampaignsPage />} />
          <Route path="campaigns/:id" element={<CampaignDetailPage />} />
          <Route path="labelfinder" element={<LabelFinderPage />} />
          <Route path="analytics" element={<AnalyticsPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="subscription" element={<SubscriptionPage />} />
          {/* The local mailbox's sent folder; the page itself says so when the app runs in AWS. */}
          <Route path="outbox" element={<OutboxPage />} />
          <Route path="*" element={<Navigate to="/dashboard" replace />} />
        </Route>
        <Route
          path="/admin/beta-waitlist"
          element={
            <RequireAuth>
              <BetaWaitlistPage />
            </RequireAuth>
          }
        />
        {/* Any other path, /admin/* included: the 404 page for everyone (spec §2). */}
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
