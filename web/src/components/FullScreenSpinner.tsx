import Spinner from '@cloudscape-design/components/spinner';
import styles from './layout.module.css';

/** Shown while authentication (or the app configuration) is loading. */
export function FullScreenSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className={styles.fullScreen} role="status" aria-live="polite" aria-label={label}>
      <Spinner size="large" />
      <span className={styles.visuallyHidden}>{label}…</span>
    </div>
  );
}
