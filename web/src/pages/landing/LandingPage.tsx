import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useNavigate } from 'react-router-dom';
import styles from '../../components/layout.module.css';
import { PublicFooter } from '../../components/PublicFooter';

/** A minimal landing page; the full marketing page (hero, pricing, FAQ, waitlist) comes in a later issue. */
export default function LandingPage() {
  const navigate = useNavigate();
  return (
    <div className={styles.page}>
      <header>
        <SpaceBetween direction="horizontal" size="m" alignItems="center">
          <Box variant="h2" tagOverride="p" margin="n">
            Trackpitch
          </Box>
        </SpaceBetween>
      </header>
      <main className={styles.center}>
        <SpaceBetween size="l" alignItems="center">
          <Box variant="h1" fontSize="display-l" textAlign="center">
            Get your tracks heard
          </Box>
          <Box variant="p" fontSize="heading-m" color="text-body-secondary" textAlign="center">
            Trackpitch sends a personal demo email to every label, DJ and A&amp;R contact, from your own mailbox, at a
            pace that keeps you out of spam folders.
          </Box>
          <Button variant="primary" onClick={() => navigate('/auth')}>
            Login
          </Button>
        </SpaceBetween>
      </main>
      <PublicFooter />
    </div>
  );
}
