import Box from '@cloudscape-design/components/box';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useConfig } from '../config/ConfigContext';
import styles from './layout.module.css';
import { useFollow } from './useFollow';

export function PublicFooter() {
  const follow = useFollow();
  const { contactEmails } = useConfig();
  return (
    <footer className={styles.footer}>
      <SpaceBetween size="xs">
        <SpaceBetween direction="horizontal" size="l">
          <Link href="/privacy" onFollow={follow}>
            Privacy Policy
          </Link>
          <Link href="/terms" onFollow={follow}>
            Terms of Service
          </Link>
        </SpaceBetween>
        <Box variant="small" color="text-body-secondary">
          Support: <Link href={`mailto:${contactEmails.support}`} variant="secondary" fontSize="inherit">{contactEmails.support}</Link>
          {' · '}Privacy: <Link href={`mailto:${contactEmails.privacy}`} variant="secondary" fontSize="inherit">{contactEmails.privacy}</Link>
        </Box>
        <Box variant="small" color="text-body-secondary">
          © {new Date().getFullYear()} Trackpitch
        </Box>
      </SpaceBetween>
    </footer>
  );
}
