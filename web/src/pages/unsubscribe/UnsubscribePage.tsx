import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useSearchParams } from 'react-router-dom';
import styles from '../../components/layout.module.css';
import { COMING_SOON } from '../../components/ComingSoon';
import { useDocumentTitle } from '../../components/useDocumentTitle';

/** Public page for email recipients. The confirm form arrives with the sending pipeline (later issue). */
export default function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim();
  useDocumentTitle('Unsubscribe');
  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <main className={styles.center}>
        <Container header={<Header variant="h1">Unsubscribe</Header>}>
          {token ? (
            <SpaceBetween size="s">
              <Box variant="p">{COMING_SOON}</Box>
              <Box variant="p" color="text-body-secondary">
                Unsubscribing from this page is not available yet. Until then, please reply to the email and ask the artist
                to remove you.
              </Box>
            </SpaceBetween>
          ) : (
            <Alert type="error" header="Invalid unsubscribe link">
              This link has no unsubscribe token. Use the unsubscribe link at the bottom of the email you received.
            </Alert>
          )}
        </Container>
      </main>
    </div>
  );
}
