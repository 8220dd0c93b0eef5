import styles from './layout.module.css';

/**
 * Shown while authentication (or the app configuration) is loading. A CSS ring rather than
 * Cloudscape's Spinner: it is on every route's first paint, and Cloudscape's would pull its design
 * tokens (~26 KB CSS gzip) into the landing page.
 */
export function FullScreenSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className={styles.fullScreen} role="status" aria-live="polite" aria-label={label}>
      <span className={styles.spinner} aria-hidden="true" />
      <span className={styles.visuallyHidden}>{label}…</span>
    </div>
  );
}
