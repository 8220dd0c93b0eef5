import type { ReactNode } from 'react';
import styles from './layout.module.css';

/** The frame of a page a recipient opens from an email (unsubscribe, listen): narrow, centred, no app shell, content left-aligned. */
export function RecipientPage({ children }: { children: ReactNode }) {
  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <main className={styles.center}>
        <div style={{ width: '100%', textAlign: 'start' }}>{children}</div>
      </main>
    </div>
  );
}
