import Box from '@cloudscape-design/components/box';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import styles from '../../components/layout.module.css';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useFollow } from '../../components/useFollow';

export default function NotFoundPage() {
  const follow = useFollow();
  useDocumentTitle('Page not found');
  return (
    <div className={styles.page}>
      <main className={styles.center}>
        <SpaceBetween size="m" alignItems="center">
          <Box variant="h1" fontSize="display-l" tagOverride="p" color="text-status-inactive">
            404
          </Box>
          <Box variant="h1">Oops! Page not found</Box>
          <Box variant="p" color="text-body-secondary">
            The page you are looking for does not exist or has moved.
          </Box>
          <Link href="/" onFollow={follow} fontSize="heading-s">
            Return to Home
          </Link>
        </SpaceBetween>
      </main>
    </div>
  );
}
