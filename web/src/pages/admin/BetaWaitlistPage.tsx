import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext';
import styles from '../../components/layout.module.css';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import waitlistStyles from './waitlist.module.css';
import { WaitlistManager } from './WaitlistManager';
import { useNotificationsOutlet } from '../../notifications/NotificationsContext';

function BackToDashboard() {
  const navigate = useNavigate();
  return (
    <Button iconName="arrow-left" onClick={() => void navigate('/dashboard')}>
      Back to Dashboard
    </Button>
  );
}

export function NotAuthorisedPage() {
  return (
    <div className={styles.page}>
      <main className={styles.center}>
        <Container header={<Header variant="h1">Not authorised</Header>}>
          <SpaceBetween size="m">
            <Box variant="p">You are not authorised to view this page. Waitlist management is only available to administrators.</Box>
            <BackToDashboard />
          </SpaceBetween>
        </Container>
      </main>
    </div>
  );
}

/** /admin/beta-waitlist: signed-in admins only (DESIGN.md §5 adds the role check the spec lacks). */
export default function BetaWaitlistPage() {
  const { isAdmin } = useAuth();
  useDocumentTitle(isAdmin ? 'Beta Waitlist Management' : 'Not authorised');
  // Toasts above the page, in the flow (sticky while scrolling): never over the header's buttons.
  const toasts = useNotificationsOutlet();
  const toastSlot = toasts && <div className={waitlistStyles.toasts}>{toasts}</div>;
  if (!isAdmin)
    return (
      <>
        {toastSlot}
        <NotAuthorisedPage />
      </>
    );
  return (
    <div className={waitlistStyles.page}>
      {toastSlot}
      <main>
        <SpaceBetween size="l">
          <Box>
            <BackToDashboard />
          </Box>
          <WaitlistManager />
        </SpaceBetween>
      </main>
    </div>
  );
}
