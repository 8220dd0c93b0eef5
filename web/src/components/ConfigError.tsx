import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import { browser } from '../lib/browser';
import styles from './layout.module.css';

export default function ConfigError({ message }: { message: string }) {
  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <main className={styles.center}>
        <Alert type="error" header="Trackpitch could not start" action={<Button onClick={() => browser.reload()}>Try again</Button>}>
          {message}
        </Alert>
      </main>
    </div>
  );
}
